package dev.vyre.scan;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.spi.ResourcePlacement;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A directory held in a kernel's DEVICE memory, so that many scans with different patterns read
 * it at device-memory speed, not across PCIe ({@code vyre serve --resident DIR}). Every file under
 * the directory is packed, back to back, into a few DEVICE resources of {@code segmentBytes} each; a
 * file larger than one is kept in pieces that overlap by {@code maxPatternLength - 1} bytes, so a
 * scan with patterns up to that long cuts its tasks inside one piece and still finds a match that
 * spans two. Each file's size, mtime and inode are kept: {@link #refresh} walks the directory again
 * and reloads what changed, loads what is new and forgets what is gone, so a scan after it sees what
 * is on disk. A reloaded file's old bytes stay where they were until the dead bytes outweigh the
 * live ones; then the corpus is loaded afresh into the same resources.
 *
 * <p>One scan or refresh at a time ({@link #lock()}): a scan holds it from its refresh to its end,
 * so no reload moves bytes under its tasks.
 */
public final class ResidentCorpus implements AutoCloseable {

  /** Resources of 1 GiB: a DFA_STEP offset is a u32, and a few large resources keep the table small. */
  public static final long DEFAULT_SEGMENT_BYTES = 1L << 30;
  /** The smallest resource made for files still to load: a small tree does not take a whole segment. */
  private static final long MIN_SEGMENT_BYTES = 1L << 20;
  /** Bytes read from disk per copy into a resource. */
  private static final long STAGING_BYTES = 16L << 20;

  /** Where one piece of a file is: its bytes {@code [readOffset, readOffset + length)}, owning match ends in {@code [ownedFrom, ownedTo)}. */
  record Piece(int handle, long at, long readOffset, long length, long ownedFrom, long ownedTo) {}

  /** One file as loaded: its stat when it was read, and its pieces (none for an empty file). */
  record Entry(Path path, long size, FileTime modified, Object fileKey, Piece[] pieces) {}

  /** What one refresh did. */
  public record Refresh(int loaded, int reloaded, int dropped, long nanos) {}

  private final KernelResourcePool pool;
  private final Path directory;
  private final ScanFilter filter;
  private final long segmentBytes;
  private final int overlap;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<Path, Entry> entries = new HashMap<>();
  private final List<Integer> segments = new ArrayList<>();
  private final int stagingHandle;
  private final MemorySegment staging;
  /** Bytes used in the last segment, and its size. */
  private long tail;
  private long tailCapacity;
  private long deviceBytes;
  /** Bytes of the files the current refresh still loads: the size of a new resource. */
  private long pendingBytes;
  private long liveBytes;
  private long deadBytes;
  private Instant lastRefresh;
  private Refresh lastChange = new Refresh(0, 0, 0, 0);
  private boolean closed;

  /**
   * Loads every file under {@code directory} (walked as {@code vyre scan} walks it, less what
   * {@code filter} skips) into DEVICE resources of {@code pool}'s kernel.
   *
   * @param maxPatternLength the longest pattern a scan of the corpus may have (its pieces overlap by one less)
   */
  public ResidentCorpus(KernelResourcePool pool, Path directory, ScanFilter filter, long segmentBytes,
      int maxPatternLength) {
    if (!Files.isDirectory(directory)) {
      throw InputException.of(directory.toString(), "is not a directory", "pass a directory to --resident");
    }
    if (maxPatternLength < 1 || maxPatternLength > PatternSet.MAX_PATTERN_LENGTH
        || segmentBytes < 2L * maxPatternLength || segmentBytes > 0xFFFF_FFFFL) {
      throw InputException.of("resident corpus", "segments of " + segmentBytes + " bytes cannot hold pieces that"
          + " overlap by " + (maxPatternLength - 1) + " bytes", "use segments of at least twice the longest pattern"
          + " and below 4 GiB, and patterns of 1.." + PatternSet.MAX_PATTERN_LENGTH + " bytes");
    }
    this.pool = pool;
    this.directory = directory.toAbsolutePath().normalize();
    this.filter = filter;
    this.segmentBytes = segmentBytes;
    this.overlap = maxPatternLength - 1;
    long stagingBytes = Math.min(STAGING_BYTES, segmentBytes);
    this.stagingHandle = pool.take(stagingBytes, ResourcePlacement.HOST_MAPPED);
    this.staging = pool.hostView(stagingHandle, stagingBytes);
    lock.lock();
    try {
      refresh();
    } finally {
      lock.unlock();
    }
  }

  /** A corpus of 1 GiB resources for patterns of any length vyre takes. */
  public ResidentCorpus(KernelResourcePool pool, Path directory) {
    this(pool, directory, ScanFilter.NONE, DEFAULT_SEGMENT_BYTES, PatternSet.MAX_PATTERN_LENGTH);
  }

  public Path directory() {
    return directory;
  }

  public KernelResourcePool pool() {
    return pool;
  }

  /** Held by a scan from its refresh to its end, and by a refresh. */
  public ReentrantLock lock() {
    return lock;
  }

  /** The longest pattern a scan of the corpus may have. */
  public int maxPatternLength() {
    return overlap + 1;
  }

  /**
   * Walks the directory again and brings the corpus up to date: files whose size, mtime or inode
   * changed are reloaded, new files loaded, files gone (or now unreadable) forgotten. The caller
   * holds {@link #lock()}.
   */
  public Refresh refresh() {
    requireLocked();
    long started = System.nanoTime();
    ScanTargets walked = ScanTargets.walk(List.of(directory), filter);
    Set<Path> seen = new HashSet<>();
    int loaded = 0;
    int reloaded = 0;
    List<Path> toLoad = new ArrayList<>();
    List<BasicFileAttributes> stats = new ArrayList<>();
    for (ScanFile file : walked.files()) {
      Path path = file.location().toAbsolutePath().normalize();
      seen.add(path);
      BasicFileAttributes stat = stat(path);
      Entry old = entries.get(path);
      if (old != null && stat != null && old.size == stat.size() && old.modified.equals(stat.lastModifiedTime())
          && Objects.equals(old.fileKey, stat.fileKey())) {
        continue;
      }
      if (old != null) {
        forget(path);
        reloaded++;
      } else {
        loaded++;
      }
      if (stat != null) {
        toLoad.add(path);
        stats.add(stat);
        pendingBytes += stat.size();
      }
    }
    for (int i = 0; i < toLoad.size(); i++) {
      load(toLoad.get(i), stats.get(i));
    }
    int dropped = 0;
    for (Path path : new ArrayList<>(entries.keySet())) {
      if (!seen.contains(path)) {
        forget(path);
        dropped++;
      }
    }
    if (deadBytes > liveBytes) {
      compact();
    }
    lastRefresh = Instant.now();
    lastChange = new Refresh(loaded, reloaded, dropped, System.nanoTime() - started);
    return lastChange;
  }

  /**
   * The loaded entry of {@code file}, when it is resident as a whole with the size it was listed
   * with; else null (the caller scans such a target from disk). The caller holds {@link #lock()}.
   */
  Entry entry(ScanFile file) {
    Entry entry = entries.get(file.location().toAbsolutePath().normalize());
    if (entry == null || entry.size != file.size() || file.from() != 0 || file.to() != file.size()) {
      return null;
    }
    return entry;
  }

  /** Files held. */
  public synchronized int files() {
    return entries.size();
  }

  /** Bytes of the files held (the pieces' overlaps not counted). */
  public synchronized long bytes() {
    return liveBytes;
  }

  /** DEVICE bytes the corpus holds: its resources. */
  public synchronized long deviceBytes() {
    return deviceBytes;
  }

  /** One line for {@code vyre serve --status}. */
  public synchronized String describe() {
    return directory + ": " + entries.size() + " file(s), " + liveBytes + " bytes in " + segments.size()
        + " DEVICE resource(s) of " + (deviceBytes >> 10) + " KiB in all; last refresh " + lastRefresh + " ("
        + lastChange.loaded + " loaded, " + lastChange.reloaded + " reloaded, " + lastChange.dropped + " dropped in "
        + String.format("%.3f s)", lastChange.nanos / 1e9);
  }

  private static BasicFileAttributes stat(Path path) {
    try {
      // Through a link, as the scan reads it: a link's target that changes is reloaded.
      return Files.readAttributes(path, BasicFileAttributes.class);
    } catch (IOException gone) {
      return null;
    }
  }

  /**
   * Reads the file into the corpus, piece by piece. A file that cannot be read, or whose length is
   * not what it was listed with (it changed during the read, or says 0 and holds bytes, as procfs
   * files do), is left out: a scan of it reads the disk.
   */
  private void load(Path path, BasicFileAttributes stat) {
    long size = stat.size();
    try {
      loadPieces(path, stat, size);
    } finally {
      pendingBytes -= size;
    }
  }

  private void loadPieces(Path path, BasicFileAttributes stat, long size) {
    ChunkPlanner plan = new ChunkPlanner(size, segmentBytes - overlap, overlap);
    List<Piece> pieces = new ArrayList<>();
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      for (long i = 0; i < plan.chunkCount(); i++) {
        ChunkPlanner.Chunk chunk = plan.chunk(i);
        if (segments.isEmpty() || tail + chunk.readLength() > tailCapacity) {
          tailCapacity = Math.min(segmentBytes, Math.max(chunk.readLength(), Math.max(MIN_SEGMENT_BYTES,
              pendingBytes + overlap)));
          segments.add(pool.take(tailCapacity, ResourcePlacement.DEVICE));
          deviceBytes += tailCapacity;
          tail = 0;
        }
        int handle = segments.getLast();
        if (!copy(channel, chunk.readOffset(), chunk.readLength(), handle, tail)) {
          discard(pieces);
          return;
        }
        pieces.add(new Piece(handle, tail, chunk.readOffset(), chunk.readLength(), chunk.readOffset() + chunk.reportFrom(),
            chunk.readOffset() + chunk.readLength()));
        tail += chunk.readLength();
      }
      if (channel.read(ByteBuffer.allocate(1), size) > 0) {
        discard(pieces);
        return;
      }
    } catch (IOException unreadable) {
      discard(pieces);
      return;
    }
    synchronized (this) {
      entries.put(path, new Entry(path, size, stat.lastModifiedTime(), stat.fileKey(), pieces.toArray(Piece[]::new)));
      liveBytes += size;
    }
  }

  /** Copies {@code length} bytes of the file at {@code offset} into the resource at {@code at}; false on a short read. */
  private boolean copy(FileChannel channel, long offset, long length, int handle, long at) throws IOException {
    long done = 0;
    while (done < length) {
      int part = (int) Math.min(staging.byteSize(), length - done);
      ByteBuffer into = staging.asSlice(0, part).asByteBuffer();
      while (into.hasRemaining()) {
        if (channel.read(into, offset + done + into.position()) < 0) {
          return false;
        }
      }
      pool.kernel().writeResource(handle, at + done, staging.asSlice(0, part));
      done += part;
    }
    return true;
  }

  /** Counts the pieces of a file that was not loaded after all as dead bytes. */
  private synchronized void discard(List<Piece> pieces) {
    for (Piece piece : pieces) {
      deadBytes += piece.length;
    }
  }

  private synchronized void forget(Path path) {
    Entry entry = entries.remove(path);
    if (entry != null) {
      liveBytes -= entry.size;
      for (Piece piece : entry.pieces) {
        deadBytes += piece.length;
      }
    }
  }

  /** Loads every file afresh into the corpus's resources, leaving out the dead bytes. */
  private void compact() {
    List<Entry> live;
    synchronized (this) {
      live = new ArrayList<>(entries.values());
      entries.clear();
      liveBytes = 0;
      deadBytes = 0;
      for (int handle : segments) {
        pool.giveBack(handle);
      }
      segments.clear();
      tail = 0;
      tailCapacity = 0;
      deviceBytes = 0;
    }
    for (Entry entry : live) {
      pendingBytes += entry.size;
    }
    for (Entry entry : live) {
      BasicFileAttributes stat = stat(entry.path);
      if (stat != null) {
        load(entry.path, stat);
      } else {
        pendingBytes -= entry.size;
      }
    }
  }

  private void requireLocked() {
    if (!lock.isHeldByCurrentThread()) {
      throw new IllegalStateException("the resident corpus is used without its lock");
    }
  }

  /** Gives the resources back to the pool; the kernel frees them when it shuts down. */
  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      synchronized (this) {
        for (int handle : segments) {
          pool.giveBack(handle);
        }
        segments.clear();
        entries.clear();
        liveBytes = 0;
        deviceBytes = 0;
      }
      pool.giveBack(stagingHandle);
    } finally {
      lock.unlock();
    }
  }
}
