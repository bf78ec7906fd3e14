package dev.vyre.scan;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.BufferPool;
import dev.vyre.io.ChunkReader;
import dev.vyre.io.IoBackends;
import dev.vyre.io.ReadCompletion;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * What a {@link ScanJob}'s free chunk buffers read next, and the reads that finished: the files in
 * the order given, each a {@link FileScan} added to the delivery's pending files as it is reached.
 * A file larger than a chunk (or read to its end) is read chunk by chunk by the job's {@link
 * ChunkReader}; small whole files are packed, as many as fit, into one buffer and read by the
 * {@link PackReaders} while the job's thread goes on (or by the job's thread, when it has nothing
 * else to do). A chunk whose reads finished is handed on to
 * be scanned ({@code sealed}). Used by the job's thread only.
 */
final class ChunkFeed implements AutoCloseable {

  private final ScanOptions options;
  private final int overlap;
  /** Bytes a pack may hold (see {@link ScanJob}'s packedBytes). */
  private final long packedBytes;
  private final ChunkSlot[] slots;
  private final ChunkReader reader;
  private final PackReaders packReaders;
  private final List<MemorySegment> buffers;
  /** The reader of the packs this thread reads itself, opened with the first. */
  private ChunkReader ownPacks;
  private final ArrayDeque<ChunkSlot> free = new ArrayDeque<>();
  private final ArrayDeque<FileScan> pending;
  private final Consumer<ChunkSlot> sealed;
  private final Consumer<ChunkSlot> release;
  /** Whether the job has no chunk being copied, published or scanned. */
  private final BooleanSupplier lanesIdle;
  private List<ScanFile> files;
  private int nextFile;
  /** The next file to tell the reader of ({@link ChunkReader#expect}), so that it opens it ahead. */
  private int nextExpected;
  private FileScan current;

  /**
   * @param pending the delivery's files opened and not yet passed on, to which each file is added in order
   * @param sealed takes a chunk whose reads finished, to copy or scan it
   * @param release frees a slot with nothing left to scan
   * @param lanesIdle whether no chunk is being copied, published or scanned
   */
  ChunkFeed(ScanOptions options, int overlap, long packedBytes, ChunkSlot[] slots, List<MemorySegment> buffers,
      ArrayDeque<FileScan> pending, Consumer<ChunkSlot> sealed, Consumer<ChunkSlot> release, BooleanSupplier lanesIdle) {
    this.options = options;
    this.overlap = overlap;
    this.packedBytes = packedBytes;
    this.slots = slots;
    this.pending = pending;
    this.sealed = sealed;
    this.release = release;
    this.lanesIdle = lanesIdle;
    this.reader = IoBackends.open(BufferPool.of(buffers), options.parallelReads());
    this.packReaders = new PackReaders(slots, buffers, options.packReaders());
    this.buffers = buffers;
    free.addAll(List.of(slots));
  }

  /** The chunk reader in use: io_uring, or FileChannel and why (for {@code --verbose}). */
  String backend() {
    return reader.backend();
  }

  ChunkReader reader() {
    return reader;
  }

  /** Starts a run over {@code targets}. */
  void start(List<ScanFile> targets) {
    files = targets;
    nextFile = 0;
    nextExpected = 0;
    current = null;
  }

  /** Whether every file was reached. */
  boolean allReached() {
    return nextFile == files.size();
  }

  /** Whether no read and no pack is in flight. */
  boolean idle() {
    return reader.inFlight() == 0 && packReaders.inFlight() == 0;
  }

  /** Forgets the file being read (after a stop, once its reads came back). */
  void dropCurrent() {
    current = null;
  }

  /** Takes a slot back whose chunk was passed on or dropped. */
  void free(ChunkSlot slot) {
    free.add(slot);
  }

  /**
   * Starts a read into every free buffer while chunks are left, reaching files as needed, until a
   * stop: the next chunk of a large file, or a pack of the small files that come next.
   */
  void fill(boolean stopping) {
    while (!stopping) {
      FileScan file = fileWithChunksLeft();
      if (file == null || file.waitsForRead() || file.rampsUp() || free.isEmpty()) {
        return;
      }
      ChunkSlot slot = free.poll();
      if (packs(file)) {
        pack(slot, file);
        continue;
      }
      ChunkPlanner.Chunk chunk = file.reads.chunk(file.nextChunk++);
      long firstTask = chunk.index() * options.tasksPerChunk();
      slot.hold(file, chunk, (int) Math.min(options.tasksPerChunk(), file.tasks.chunkCount() - firstTask));
      file.readsInFlight++;
      reader.submit(file.handle, chunk.readOffset(), (int) chunk.readLength(), slot.index, 0, slot.index);
    }
  }

  /**
   * Fills {@code slot} with {@code first} and the small files after it while they fit, and hands it
   * to the pack readers; or reads it at once when there are none, or when nothing else is in
   * flight, so that a small job (a file or a few) does not wait for another thread to be woken and
   * scheduled.
   */
  private void pack(ChunkSlot slot, FileScan first) {
    FileScan file = first;
    do {
      slot.hold(file, file.reads.chunk(file.nextChunk++), (int) file.tasks.chunkCount());
      file = fileWithChunksLeft();
    } while (file != null && packs(file)
        && slot.fits(file.reads.chunk(0).readLength(), file.tasks.chunkCount(), packedBytes, options.tasksPerChunk()));
    if (idle() && lanesIdle.getAsBoolean()) {
      // The job's reader, idle; not told of the pack's files: its queue of files opened ahead holds the large ones.
      PackReaders.read(reader, slot, false);
      packRead(slot, false);
    } else if (options.packReaders() == 0) {
      if (ownPacks == null) {
        // A reader of its own: the job's reader has reads in flight.
        ownPacks = IoBackends.openUnregistered(BufferPool.of(buffers));
      }
      PackReaders.read(ownPacks, slot, true);
      packRead(slot, false);
    } else {
      packReaders.submit(slot);
    }
  }

  /** A file read whole into one chunk, which may share it with other such files. */
  private boolean packs(FileScan file) {
    return packs(file.file);
  }

  private boolean packs(ScanFile file) {
    return file.size() != 0 && file.to() - file.from() <= options.chunkBytes() && file.to() > file.from();
  }

  /** The file whose next chunk is read next: the current one, or the next that is reached. */
  private FileScan fileWithChunksLeft() {
    while (current == null || !current.moreToRead()) {
      closeIfRead(current);
      if (nextFile == files.size()) {
        current = null;
        return null;
      }
      expectAhead();
      current = new FileScan(files.get(nextFile), nextFile, options, overlap);
      nextFile++;
      pending.add(current);
      if (current.moreToRead() && !packs(current)) {
        try {
          current.handle = reader.openFile(current.file.location());
        } catch (PipelineException e) {
          current.failToOpen(FileErrors.reason(e));
        }
      }
    }
    return current;
  }

  /**
   * Tells the reader of the files it opens next, in order, until it takes no more: io_uring opens
   * them in batches with the reads instead of one open(2) per file on this thread. Packed files are
   * opened by the pack readers, and a file too large to scan is never opened, so neither is told of.
   */
  private void expectAhead() {
    nextExpected = Math.max(nextExpected, nextFile);
    while (nextExpected < files.size()) {
      ScanFile file = files.get(nextExpected);
      if (file.size() < HitList.MAX_START && !packs(file) && !reader.expect(file.location())) {
        return;
      }
      nextExpected++;
    }
  }

  /** Closes a file once no more of it will be read. */
  void closeIfRead(FileScan file) {
    if (file != null && file.handle >= 0 && file.readsInFlight == 0 && !file.moreToRead()) {
      reader.closeFile(file.handle);
      file.handle = -1;
    }
  }

  /**
   * Takes the reads and packs that finished, handing each chunk on to be scanned, or freeing it
   * after a stop or when its file failed or stopped; returns false when none had.
   */
  boolean takeFinished(boolean stopping) {
    boolean progress = false;
    ReadCompletion read;
    while ((read = reader.poll()) != null) {
      onRead(read, stopping);
      progress = true;
    }
    ChunkSlot pack;
    while ((pack = packReaders.poll()) != null) {
      packRead(pack, stopping);
      progress = true;
    }
    return progress;
  }

  /** Takes a pack whose files were all read (or failed), and hands it on to be scanned unless the run stops. */
  private void packRead(ChunkSlot pack, boolean stopping) {
    pack.takePackReads();
    if (stopping) {
      release.accept(pack);
    } else {
      sealed.accept(pack);
    }
  }

  private void onRead(ReadCompletion read, boolean stopping) {
    ChunkSlot slot = slots[(int) read.userData()];
    FileScan file = slot.file(0);
    file.readsInFlight--;
    if (read.failed()) {
      file.failUnreadable("read failed at offset " + slot.chunk(0).readOffset() + ": " + FileErrors.reason(read.error()));
    } else {
      file.read(slot.chunk(0), read.bytesRead());
    }
    closeIfRead(file);
    // After a stop nothing more is passed on, so a chunk read is not worth scanning.
    if (stopping || file.error != null || file.stopped) {
      release.accept(slot);
    } else {
      slot.read(read.bytesRead());
      sealed.accept(slot);
    }
  }

  /** Waits for the pack readers and the reads in flight, and closes the reader. */
  @Override
  public void close() {
    packReaders.close();
    if (ownPacks != null) {
      ownPacks.close();
    }
    reader.close();
  }
}
