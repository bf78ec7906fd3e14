package dev.vyre.scan;

import dev.vyre.runtime.CacheDirectory;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * Where {@code vyre scan --backend auto} runs a job in a process of its own: a GPU pays a start-up
 * (a CUDA context, the kernel from the pipeline cache, pinned buffers) before its first byte that
 * the CPU reference backend does not, and scans the bytes after it far faster. The job runs on the
 * CPU when its cores would finish it before the GPU would: {@code bytes / (cores x cpu rate)}
 * against {@code start-up + bytes / gpu rate}.
 *
 * <p>The three figures are learned on the machine: each one-shot scan adds what it measured (a
 * CUDA kernel's start-up, when the kernel came from the pipeline cache; the bytes per second of a
 * scan of large files on either backend), the latest weighing as
 * much as all before it, and {@link #store} keeps them in {@code scan-route.properties} in vyre's
 * cache directory. The two rates are kept apart for each {@link #patternClass} of pattern set: a
 * set of ten thousand literals makes a table that no longer fits a core's caches, and the CPU scans
 * it several times slower than a hundred literals', which learned for every set would send small
 * sets to the GPU that the CPU scans sooner. Until a figure has been measured it is the default
 * below, from the H100 host of
 * docs/BENCHMARKS.md ("Fourteenth session: a real tree against ripgrep, one-shot"): CUDA's start-up
 * 1.2-2 s with the kernel in the pipeline cache, the reference backend 1-4 GB/s on 16 cores (100 MB
 * a second per core is the dense-match end), CUDA about 10 GB/s with dense matches. A running
 * {@code vyre serve} has paid the start-up already, so this route is for one-shot scans only.
 *
 * @param gpuStartupNanos a GPU kernel's start-up
 * @param cpuBytesPerCoreSecond what the reference backend scans per core and second
 * @param gpuBytesPerSecond what a GPU scans per second
 * @param gpuStarts start-ups measured so far (0: the default)
 * @param cpuScans reference scans measured so far
 * @param gpuScans GPU scans measured so far
 */
public record ScanRoute(long gpuStartupNanos, long cpuBytesPerCoreSecond, long gpuBytesPerSecond, long gpuStarts,
    long cpuScans, long gpuScans) {

  /** The figures before anything was measured on this machine. */
  public static final ScanRoute DEFAULTS = new ScanRoute(1_300_000_000L, 100_000_000L, 10_000_000_000L, 0, 0, 0);
  /**
   * Scans of fewer bytes a file measure their start or their per-file work more than their rate:
   * they teach no rate (a tree of small files scanned at a fraction of a GPU's rate would
   * otherwise send every later job, big files too, to the CPU).
   */
  public static final long MIN_MEASURED_BYTES_PER_FILE = 64L << 20;

  /** The file the figures are kept in. */
  public static Path standardFile() {
    return CacheDirectory.resolve("scan-route.properties");
  }

  /** Pattern sets of fewer literal bytes than this are {@code small}: their table fits a core's caches. */
  static final long SMALL_PATTERN_BYTES = 4L << 10;
  /** Fewer than this, {@code medium}; more, {@code large}. */
  static final long MEDIUM_PATTERN_BYTES = 64L << 10;

  /**
   * The class whose rates a pattern set's scans learn and use: {@code small}, {@code medium} or
   * {@code large} by the bytes of its literals, which bound its DFA's states.
   */
  public static String patternClass(long patternBytes) {
    return patternBytes < SMALL_PATTERN_BYTES ? "small" : patternBytes < MEDIUM_PATTERN_BYTES ? "medium" : "large";
  }

  /**
   * The figures kept in {@code file} for pattern sets of {@code patternClass} (the start-up is every
   * class's); the defaults for any that is missing or unreadable.
   */
  public static ScanRoute load(Path file, String patternClass) {
    Properties kept = read(file);
    return new ScanRoute(positive(kept, "gpu.startup.nanos", DEFAULTS.gpuStartupNanos),
        positive(kept, "cpu.bytes.per.core.second." + patternClass, DEFAULTS.cpuBytesPerCoreSecond),
        positive(kept, "gpu.bytes.per.second." + patternClass, DEFAULTS.gpuBytesPerSecond), count(kept, "gpu.starts"),
        count(kept, "cpu.scans." + patternClass), count(kept, "gpu.scans." + patternClass));
  }

  /** What {@code file} holds; nothing when it is missing or unreadable. */
  private static Properties read(Path file) {
    Properties kept = new Properties();
    try (Reader reader = Files.newBufferedReader(file)) {
      kept.load(reader);
    } catch (IOException | IllegalArgumentException e) {
      return new Properties();
    }
    return kept;
  }

  private static long positive(Properties kept, String key, long fallback) {
    long value = count(kept, key);
    return value > 0 ? value : fallback;
  }

  private static long count(Properties kept, String key) {
    try {
      return Math.max(0, Long.parseLong(kept.getProperty(key, "0").strip()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * Keeps the figures in {@code file} as those of {@code patternClass} (and the start-up), keeping the
   * other classes' rates; the file is replaced whole (a reader never sees half a file).
   */
  public void store(Path file, String patternClass) throws IOException {
    Properties kept = read(file);
    kept.setProperty("gpu.startup.nanos", Long.toString(gpuStartupNanos));
    kept.setProperty("gpu.starts", Long.toString(gpuStarts));
    kept.setProperty("cpu.bytes.per.core.second." + patternClass, Long.toString(cpuBytesPerCoreSecond));
    kept.setProperty("gpu.bytes.per.second." + patternClass, Long.toString(gpuBytesPerSecond));
    kept.setProperty("cpu.scans." + patternClass, Long.toString(cpuScans));
    kept.setProperty("gpu.scans." + patternClass, Long.toString(gpuScans));
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path written = Files.createTempFile(file.toAbsolutePath().getParent(), "scan-route", ".tmp");
    try {
      try (Writer writer = Files.newBufferedWriter(written)) {
        kept.store(writer, "what vyre scan --backend auto measured on this machine (docs/POLICY.md)");
      }
      try {
        Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(written, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(written);
    }
  }

  /** The route after a GPU kernel started in {@code nanos}. */
  public ScanRoute afterGpuStart(long nanos) {
    return new ScanRoute(learn(gpuStartupNanos, gpuStarts, nanos), cpuBytesPerCoreSecond, gpuBytesPerSecond,
        gpuStarts + 1, cpuScans, gpuScans);
  }

  /** The route after a scan of {@code bytes} in {@code files} files in {@code nanos}, on the GPU or on {@code cores} CPU cores. */
  public ScanRoute afterScan(boolean gpu, long bytes, int files, long nanos, int cores) {
    if (files < 1 || bytes / files < MIN_MEASURED_BYTES_PER_FILE || nanos <= 0) {
      return this;
    }
    long rate = (long) (bytes * 1e9 / nanos);
    return gpu
        ? new ScanRoute(gpuStartupNanos, cpuBytesPerCoreSecond, learn(gpuBytesPerSecond, gpuScans, rate), gpuStarts, cpuScans, gpuScans + 1)
        : new ScanRoute(gpuStartupNanos, learn(cpuBytesPerCoreSecond, cpuScans, rate / Math.max(cores, 1)), gpuBytesPerSecond,
            gpuStarts, cpuScans + 1, gpuScans);
  }

  /** The first measurement replaces the default; each later one weighs as much as all before it. */
  private static long learn(long current, long measured, long sample) {
    return Math.max(1, measured == 0 ? sample : (current + sample) / 2);
  }

  /** Seconds the CPU's {@code cores} take for {@code bytes}. */
  public double cpuSeconds(long bytes, int cores) {
    return bytes / ((double) cpuBytesPerCoreSecond * Math.max(cores, 1));
  }

  /** Seconds a GPU takes for {@code bytes}, its start-up included. */
  public double gpuSeconds(long bytes) {
    return gpuStartupNanos / 1e9 + bytes / (double) gpuBytesPerSecond;
  }

  /** Whether {@code auto} runs a job of {@code bytes} bytes on the CPU, given {@code cores} cores. */
  public boolean onCpu(long bytes, int cores) {
    return cpuSeconds(bytes, cores) < gpuSeconds(bytes);
  }

  /** Why, for {@code --verbose}. */
  public String explain(long bytes, int cores) {
    return String.format("%d bytes to scan: %d cores at %.2f GB/s a core (%s) take %.3f s, a GPU %.3f s to start (%s)"
            + " and %.3f s at %.2f GB/s (%s)", bytes, cores, cpuBytesPerCoreSecond / 1e9, measured(cpuScans),
        cpuSeconds(bytes, cores), gpuStartupNanos / 1e9, measured(gpuStarts), bytes / (double) gpuBytesPerSecond,
        gpuBytesPerSecond / 1e9, measured(gpuScans));
  }

  private static String measured(long times) {
    return times == 0 ? "default" : "measured here, " + times + (times == 1 ? " run" : " runs");
  }
}
