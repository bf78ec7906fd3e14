package dev.vyre.cuda;

import dev.vyre.cuda.ffm.Nvrtc;
import dev.vyre.runtime.CacheDirectory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.ArrayList;
import java.util.List;

/**
 * vyre's pipeline cache: compiled CUBIN on disk under a content hash of source, options and device,
 * so a warm start skips NVRTC. Each entry carries the SHA-256 of its payload; an entry that fails
 * the check (truncated, corrupted) is deleted and rebuilt. Bounded as vyre bounds it
 * (docs/PORTS.md, "Pipeline cache"): at most 256 entries and 256 MiB unless
 * {@code VYRE_PIPELINE_CACHE_ENTRIES} or {@code VYRE_PIPELINE_CACHE_BYTES} say otherwise; a new
 * entry evicts the least recently used ones (a hit marks an entry used by its modification time, so
 * several processes sharing the directory agree without a lock file).
 */
public final class PipelineCache {

  // Warnings go through System.Logger, so that an application embedding vyre routes or silences them.
  private static final System.Logger LOG = System.getLogger(PipelineCache.class.getName());
  private static final byte[] MAGIC = "VYREPC01".getBytes(StandardCharsets.US_ASCII);
  private static final String SUFFIX = ".cubin";
  static final long DEFAULT_MAX_ENTRIES = 256;
  static final long DEFAULT_MAX_BYTES = 256L << 20;

  /** How a lookup went, for logs and tests. */
  public enum Outcome { HIT, MISS, REBUILT_CORRUPT }

  /** A compiled image and how it was obtained. */
  public record Entry(byte[] cubin, Outcome outcome, Path file) {}

  private final Path directory;
  private final long maxEntries;
  private final long maxBytes;

  /** A cache in {@code directory} with the limits of the environment (or vyre's defaults). */
  public PipelineCache(Path directory) {
    this(directory, limit("VYRE_PIPELINE_CACHE_ENTRIES", DEFAULT_MAX_ENTRIES), limit("VYRE_PIPELINE_CACHE_BYTES", DEFAULT_MAX_BYTES));
  }

  PipelineCache(Path directory, long maxEntries, long maxBytes) {
    this.directory = directory;
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
  }

  /** A positive whole number from {@code variable}; anything else warns and keeps the default, as vyre does. */
  static long limit(String variable, long fallback) {
    return parseLimit(variable, System.getenv(variable), fallback);
  }

  static long parseLimit(String variable, String value, long fallback) {
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      long parsed = Long.parseLong(value.strip());
      if (parsed > 0) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // warned below
    }
    LOG.log(System.Logger.Level.WARNING, variable + "=" + value + " is not a positive whole number; the pipeline cache"
        + " keeps its default of " + fallback + ". Fix: set it to a positive number or unset it");
    return fallback;
  }

  /**
   * The {@code vyre.cache.dir} property, else {@code $VYRE_CACHE_DIR}, else
   * {@code $XDG_CACHE_HOME/vyre/pipelines}, else {@code ~/.cache/vyre/pipelines}.
   */
  public static PipelineCache standard() {
    Path explicit = CacheDirectory.explicit();
    return new PipelineCache(explicit != null ? explicit : CacheDirectory.userBase().resolve("pipelines"));
  }

  public Path directory() {
    return directory;
  }

  /**
   * The CUBIN of {@code source} for {@code device}: NVRTC with the device's architecture, C++17
   * and {@code extraOptions}, or this cache's entry for exactly that source, those options, that
   * device, driver and NVRTC.
   */
  public Entry compileFor(CudaDevice device, String source, String name, List<String> extraOptions) {
    Nvrtc nvrtc = Nvrtc.load();
    List<String> options = new ArrayList<>(List.of("--gpu-architecture=" + device.architecture(), "--std=c++17"));
    options.addAll(extraOptions);
    String identity = device.name() + "|" + device.architecture() + "|driver " + device.driverVersion() + "|nvrtc " + nvrtc.version();
    return getOrCompile(key(source, options, identity), nvrtc, source, name, options);
  }

  /** The cache key: SHA-256 over source, options and everything about the device and compiler. */
  public static String key(String source, List<String> options, String deviceIdentity) {
    MessageDigest digest = sha256();
    for (String part : List.of(source, String.join("\u0000", options), deviceIdentity)) {
      digest.update(part.getBytes(StandardCharsets.UTF_8));
      digest.update((byte) 0);
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  /** The cached CUBIN for this key, compiled with {@code nvrtc} on a miss or a corrupt entry. */
  public Entry getOrCompile(String key, Nvrtc nvrtc, String source, String name, List<String> options) {
    return getOrCompile(key, () -> nvrtc.compile(source, name, options).cubin());
  }

  /** The cached image for this key, from {@code compile} on a miss or a corrupt entry (tests pass a fake compiler). */
  Entry getOrCompile(String key, java.util.function.Supplier<byte[]> compile) {
    Path file = directory.resolve(key + SUFFIX);
    Outcome outcome = Outcome.MISS;
    if (Files.isRegularFile(file)) {
      byte[] payload = read(file);
      if (payload != null) {
        markUsed(file);
        return new Entry(payload, Outcome.HIT, file);
      }
      outcome = Outcome.REBUILT_CORRUPT;
      LOG.log(System.Logger.Level.WARNING, "pipeline cache entry " + file + " is truncated or corrupt (a crash while it was"
          + " written?); recompiling it");
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // the rewrite below replaces it atomically anyway
      }
    }
    byte[] cubin = compile.get();
    write(file, cubin);
    evictBeyondLimits(file);
    return new Entry(cubin, outcome, file);
  }

  /** A hit makes the entry the most recently used: eviction goes by modification time. */
  private static void markUsed(Path file) {
    try {
      Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
    } catch (IOException e) {
      // A read-only cache still serves hits; it only evicts less well.
    }
  }

  /**
   * Deletes the least recently used entries until at most {@code maxEntries} remain and they hold
   * at most {@code maxBytes}; never {@code keep}, the entry just written. Another process may
   * delete or add entries meanwhile: an entry that is gone already is skipped, and a process
   * reading an entry deleted under it still reads it (an unlinked file stays readable).
   */
  private void evictBeyondLimits(Path keep) {
    record Cached(Path file, long bytes, FileTime used) {}
    List<Cached> entries = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
      for (Path file : files) {
        try {
          BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
          if (attributes.isRegularFile()) {
            entries.add(new Cached(file, attributes.size(), attributes.lastModifiedTime()));
          }
        } catch (IOException e) {
          // gone meanwhile
        }
      }
    } catch (IOException e) {
      return;
    }
    long count = entries.size();
    long bytes = entries.stream().mapToLong(Cached::bytes).sum();
    entries.sort(Comparator.comparing(Cached::used));
    for (Cached oldest : entries) {
      if (count <= maxEntries && bytes <= maxBytes) {
        return;
      }
      if (oldest.file().equals(keep)) {
        continue;
      }
      try {
        Files.deleteIfExists(oldest.file());
      } catch (IOException e) {
        // another process may hold the directory read-only for us; count it as gone anyway
      }
      count--;
      bytes -= oldest.bytes();
    }
  }

  /** The verified payload, or null when the entry is malformed. */
  static byte[] read(Path file) {
    try {
      byte[] bytes = Files.readAllBytes(file);
      int header = MAGIC.length + 32;
      if (bytes.length <= header || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
        return null;
      }
      byte[] payload = Arrays.copyOfRange(bytes, header, bytes.length);
      byte[] expected = Arrays.copyOfRange(bytes, MAGIC.length, header);
      return Arrays.equals(sha256().digest(payload), expected) ? payload : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** Writes an entry atomically (temp file + rename); a failure to cache is not an error. */
  static void write(Path file, byte[] payload) {
    try {
      Files.createDirectories(file.getParent());
      Path temp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
      try {
        ByteBuffer out = ByteBuffer.allocate(MAGIC.length + 32 + payload.length);
        out.put(MAGIC).put(sha256().digest(payload)).put(payload);
        Files.write(temp, out.array());
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        // After a failed write or move (a full disk): no partial temp file left behind for every run.
        Files.deleteIfExists(temp);
      }
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "could not write pipeline cache entry " + file + ": " + e.getMessage());
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
