package dev.vyre.runtime.scan;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.io.BufferPool;
import dev.vyre.runtime.io.ChunkReader;
import dev.vyre.runtime.io.IoBackends;
import dev.vyre.runtime.io.ReadCompletion;
import dev.vyre.runtime.spi.ResourcePlacement;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The {@code vyre scan} engine: reads files in chunks into a fixed pool of HOST_MAPPED resources
 * (io_uring where it works, so on CUDA the bytes land straight in pinned memory), publishes one
 * DFA_STEP task per {@link ScanOptions#taskBytes()} of each chunk, reads each chunk's hits back
 * once its tasks finished, and hands every file's matches, sorted by offset, to a sink in file
 * order. A chunk whose hits overflow its buffer is rescanned with a buffer that holds them all.
 *
 * <p>One thread drives it: it keeps every buffer busy reading or scanning, and reuses a buffer
 * only after its tasks finished. The job owns the megakernel's DFA_STEP work while it runs (a
 * fault in any task fails the job). Resources are allocated once, when the job is created.
 */
public final class ScanJob implements AutoCloseable {

  /** The most records one chunk's hit buffer may grow to (256 MiB); more is reported per file. */
  public static final long MAX_HIT_CAPACITY = 1L << 24;

  private static final Duration TASK_TIMEOUT = Duration.ofMinutes(2);

  private final Megakernel kernel;
  private final DfaTable table;
  private final ScanOptions options;
  private final int overlap;
  private final int dfaHandle;
  private final Arena arena = Arena.ofConfined();
  private final HitResources hitResources;
  private final ChunkSlot[] slots;
  private final ChunkReader reader;
  private final TaskBatch batch;
  private final ArrayDeque<ChunkSlot> free = new ArrayDeque<>();
  private final ArrayDeque<ChunkSlot> scanning = new ArrayDeque<>();
  private final ArrayDeque<FileScan> pending = new ArrayDeque<>();
  private volatile long bytesScanned;
  private long rescans;
  private long faultsSeen;
  private List<ScanFile> files;
  private int nextFile;
  private FileScan current;

  /**
   * Validates and uploads the table (DEVICE), allocates the chunk buffers (HOST_MAPPED) and their
   * hit buffers (DEVICE), and opens the chunk reader over the buffers. The kernel's ring must
   * hold {@link ScanOptions#tasksPerChunk()} tasks of priority NORMAL at once.
   */
  public ScanJob(Megakernel kernel, DfaTable table, ScanOptions options) {
    this.kernel = kernel;
    this.table = table;
    this.options = options;
    this.overlap = table.maxPatternLength() - 1;
    DfaTableLayout.validate(table.segment(), "DFA table");
    this.dfaHandle = kernel.allocateResource(table.byteSize(), ResourcePlacement.DEVICE);
    kernel.writeResource(dfaHandle, 0, table.segment());
    this.hitResources = new HitResources(kernel, arena);
    long capacity = Math.min(options.hitCapacity(), MAX_HIT_CAPACITY);
    long bufferBytes = Math.ceilDiv(options.chunkBytes() + overlap, BufferPool.ALIGNMENT) * BufferPool.ALIGNMENT;
    this.slots = new ChunkSlot[options.buffers()];
    List<MemorySegment> buffers = new ArrayList<>();
    for (int i = 0; i < slots.length; i++) {
      int input = kernel.allocateResource(bufferBytes, ResourcePlacement.HOST_MAPPED);
      MemorySegment host = kernel.resource(input);
      if (host == null) {
        throw PipelineException.backend("the " + kernel.backendName() + " backend gives no host view of a HOST_MAPPED "
            + "resource. Fix: implement KernelSession.resource for HOST_MAPPED resources");
      }
      buffers.add(host);
      slots[i] = new ChunkSlot(i, input, hitResources.allocate(capacity), capacity);
      free.add(slots[i]);
    }
    this.reader = IoBackends.open(BufferPool.of(buffers));
    this.batch = new TaskBatch(options.tasksPerChunk()).priority(Priority.NORMAL);
    this.faultsSeen = kernel.stats().faults();
  }

  /** The chunk reader in use: io_uring, or FileChannel and why (for {@code --verbose}). */
  public String ioBackend() {
    return reader.backend();
  }

  /** Bytes scanned so far in the current run; safe to read from another thread (progress). */
  public long bytesScanned() {
    return bytesScanned;
  }

  /**
   * Scans {@code targets} and passes each file's result to {@code sink}, in the order given; a
   * file that cannot be read is passed with its error and the job goes on.
   *
   * @throws PipelineException when a task faulted or the kernel stopped finishing tasks; a job
   *     whose run threw is closed, not run again
   */
  public ScanSummary run(List<ScanFile> targets, Consumer<FileResult> sink) {
    long started = System.nanoTime();
    files = targets;
    nextFile = 0;
    current = null;
    bytesScanned = 0;
    rescans = 0;
    int failed = 0;
    long matches = 0;
    while (true) {
      readIntoFreeBuffers();
      while (!pending.isEmpty() && pending.peek().finished()) {
        FileResult result = pending.poll().result();
        failed += result.failed() ? 1 : 0;
        matches += result.matches();
        sink.accept(result);
      }
      if (reader.inFlight() == 0 && scanning.isEmpty()) {
        break;
      }
      // Publish read chunks first while the kernel has little queued; otherwise free a buffer.
      if (reader.inFlight() > 0 && (scanning.size() <= slots.length / 2)) {
        onRead(reader.await());
      } else {
        finishOldest();
      }
    }
    return new ScanSummary(targets.size(), failed, bytesScanned, matches, rescans, System.nanoTime() - started);
  }

  /** Starts a read into every free buffer while chunks are left, opening files as needed. */
  private void readIntoFreeBuffers() {
    while (!free.isEmpty()) {
      FileScan file = fileWithChunksLeft();
      if (file == null) {
        return;
      }
      ChunkSlot slot = free.poll();
      ChunkPlanner.Chunk chunk = file.reads.chunk(file.nextChunk++);
      slot.hold(file, chunk);
      file.readsInFlight++;
      reader.submit(file.handle, chunk.readOffset(), (int) chunk.readLength(), slot.index, slot.index);
    }
  }

  /** The file whose next chunk is read next: the current one, or the next that opens. */
  private FileScan fileWithChunksLeft() {
    while (current == null || !current.moreToRead()) {
      closeIfRead(current);
      if (nextFile == files.size()) {
        current = null;
        return null;
      }
      current = new FileScan(files.get(nextFile), nextFile, options, overlap);
      nextFile++;
      pending.add(current);
      if (current.moreToRead()) {
        try {
          current.handle = reader.openFile(current.file.path());
        } catch (PipelineException e) {
          current.fail(FileErrors.reason(e));
        }
      }
    }
    return current;
  }

  /** Closes a file once no more of it will be read. */
  private void closeIfRead(FileScan file) {
    if (file != null && file.handle >= 0 && file.readsInFlight == 0 && !file.moreToRead()) {
      reader.closeFile(file.handle);
      file.handle = -1;
    }
  }

  private void onRead(ReadCompletion read) {
    ChunkSlot slot = slots[(int) read.userData()];
    FileScan file = slot.file;
    file.readsInFlight--;
    if (read.failed()) {
      file.fail("read failed at offset " + slot.chunk.readOffset() + ": " + FileErrors.reason(read.error()));
    }
    closeIfRead(file);
    if (file.error != null) {
      release(slot);
      return;
    }
    slot.bytesRead = read.bytesRead();
    publish(slot);
  }

  /**
   * One DFA_STEP per task of the chunk, in one batch. A file that shrank since it was listed is
   * scanned as far as it was read.
   */
  private void publish(ChunkSlot slot) {
    FileScan file = slot.file;
    long chunkStart = slot.chunk.readOffset();
    long firstTask = slot.chunk.index() * options.tasksPerChunk();
    long endTask = Math.min(firstTask + options.tasksPerChunk(), file.tasks.chunkCount());
    batch.clear();
    for (long k = firstTask; k < endTask; k++) {
      ChunkPlanner.Chunk task = file.tasks.chunk(k);
      long at = task.readOffset() - chunkStart;
      long length = Math.min(task.readLength(), slot.bytesRead - at);
      if (length > task.reportFrom()) {
        batch.add(0, DfaStepArgs.OPCODE, new DfaStepArgs(slot.inputHandle, at, length, dfaHandle, table.startState(),
            slot.hitHandle, file.inputId, task.readOffset(), task.reportFrom()).toArgs());
      }
    }
    if (batch.size() == 0) {
      release(slot);
      return;
    }
    slot.lastTicket = Megakernel.batchTicket(kernel.publish(batch), batch.size() - 1);
    scanning.add(slot);
  }

  /** Waits for the oldest scanning chunk, then collects its hits or rescans it if they overflowed. */
  private void finishOldest() {
    ChunkSlot slot = scanning.poll();
    if (!awaitTasks(slot.lastTicket)) {
      throw PipelineException.backend("DFA_STEP tasks of " + slot.file.file.path() + " did not finish within "
          + TASK_TIMEOUT.toSeconds() + " s (" + kernel.summary() + "). Fix: check `vyre doctor` and the backend");
    }
    long faults = kernel.stats().faults();
    if (faults != faultsSeen) {
      throw PipelineException.backend((faults - faultsSeen) + " DFA_STEP task(s) faulted while scanning "
          + slot.file.file.path() + ". Fix: report this; the scan validates every range and table it publishes");
    }
    FileScan file = slot.file;
    long cursor = hitResources.cursor(slot.hitHandle);
    if (cursor > slot.hitCapacity) {
      hitResources.reset(slot.hitHandle, slot.hitCapacity);
      if (cursor <= MAX_HIT_CAPACITY) {
        slot.hitCapacity = Math.min(MAX_HIT_CAPACITY, Math.max(cursor, 2 * slot.hitCapacity));
        slot.hitHandle = hitResources.allocate(slot.hitCapacity);
        rescans++;
        publish(slot);
        return;
      }
      file.fail(cursor + " matches in the chunk at offset " + slot.chunk.readOffset() + " exceed the "
          + MAX_HIT_CAPACITY + " a hit buffer holds; the matches there are not reported");
    } else {
      long foreign = hitResources.collect(slot.hitHandle, cursor, file.inputId, file::hit);
      hitResources.reset(slot.hitHandle, slot.hitCapacity);
      if (foreign > 0) {
        throw PipelineException.backend(foreign + " hit record(s) for " + file.file.path()
            + " carried another input id. Fix: report this backend bug");
      }
    }
    bytesScanned += slot.chunk.readLength() - slot.chunk.reportFrom();
    release(slot);
  }

  /**
   * Waits for a ticket with a doubling sleep (10 µs up to 1 ms) rather than a spin: a chunk takes
   * milliseconds, and on a small CPU a spinning host steals cycles from the reference workers.
   */
  private boolean awaitTasks(long ticket) {
    long deadline = System.nanoTime() + TASK_TIMEOUT.toNanos();
    long sleep = 10_000;
    while (!kernel.await(ticket, Duration.ZERO)) {
      if (System.nanoTime() - deadline > 0 || !kernel.isKernelRunning()) {
        return false;
      }
      LockSupport.parkNanos(sleep);
      sleep = Math.min(2 * sleep, 1_000_000);
    }
    return true;
  }

  private void release(ChunkSlot slot) {
    slot.release();
    free.add(slot);
  }

  /** Closes the chunk reader (after its reads finished) and frees the job's host scratch. */
  @Override
  public void close() {
    reader.close();
    arena.close();
  }
}
