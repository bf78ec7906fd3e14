package dev.vyre.io;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.IdleStrategy;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.ThreadEnds;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * Reads file ranges into the chunks of one kernel resource and publishes a task for each range once
 * its bytes are there: the Java counterpart of vyre's {@code UringResidentQueuePump}
 * ({@code submit_file_scan}, docs/PORTS.md, "Ingest and the IO loop"), with a future per range
 * instead of FIFO pairing of completions. The resource (HOST_MAPPED, so that on CUDA the reader
 * fills pinned memory the kernel reads) is split into {@link #chunkCount()} equal chunks; chunk
 * {@code c} starts at byte {@link #chunkOffset(int) chunkOffset(c)} of it, which is what a task's
 * arguments name to find its bytes. The reader is chosen as {@code vyre scan} chooses it
 * ({@link IoBackends}).
 *
 * <p>A chunk is busy from {@link #submit} until its task finished or its read failed, and is free
 * again before the returned future completes, so a stage chained on it may submit into the same
 * chunk. Submitting into a busy chunk is refused at once ({@code Busy}): the caller names the
 * chunk, as vyre's {@code chunk_idx}, so a busy one means two owners, and waiting would hide that
 * as a stall. A read that fails or ends short fails its future with a {@link PipelineException} and
 * leaves the other reads alone.
 *
 * <p>Any thread may submit. One pump thread owns the reader (a {@link ChunkReader} is
 * single-threaded): it opens each file once for the reads in flight on it, publishes each task
 * with {@link Megakernel#submit(Task)} when its read completed (waiting, like any publisher, when
 * the ring is full), and closes the file after its last read. Futures complete on the kernel's
 * retire thread, or on the pump thread for a failed read; keep their callbacks short.
 *
 * <p>{@link #close} drains: every range submitted before it is read and its task published (or its
 * future failed), then files and the reader are closed. Published tasks run on and complete their
 * futures. The chunks are the kernel's memory, freed by its shutdown: close the pump first.
 */
public final class IngestPump implements AutoCloseable {

  private static final String SOURCE = "ingest pump";
  /** Polls of a reader with reads in flight that spin, then yield, before the pump parks between polls. */
  private static final int SPIN_POLLS = 64;
  private static final int YIELD_POLLS = 256;
  private static final long POLL_PARK_NANOS = 20_000;

  private final Megakernel kernel;
  private final int resource;
  private final int chunkBytes;
  private final ChunkReader reader;
  /** 1 while a chunk's read or task is under way; the only per-chunk state submitters touch. */
  private final AtomicIntegerArray busy;
  /** Submissions the pump thread has not taken; its lock also guards {@link #closing} and {@link #failure}. */
  private final ArrayDeque<Request> inbox = new ArrayDeque<>();
  private boolean closing;
  /** What stopped the pump thread other than a close; null while it runs or after a close. */
  private Throwable failure;
  /** Why the reader's close failed (its files or ring may stay open), for {@link #close} to throw. */
  private RuntimeException closeFailure;
  private volatile boolean pumpParked;
  private final Thread pump;
  /** The pump thread's wait while reads are in flight: spins (a cached read completes in µs), then yields, then parks briefly. */
  private final IdleStrategy.Backoff readWait = IdleStrategy.backoff(SPIN_POLLS, YIELD_POLLS - SPIN_POLLS, POLL_PARK_NANOS, POLL_PARK_NANOS);

  // The pump thread's own state.
  private final ArrayDeque<Request> toRead = new ArrayDeque<>();
  /** The request whose read is in flight into each chunk (the read's user data is the chunk). */
  private final Request[] reading;
  private final Map<Path, OpenFile> openFiles = new HashMap<>();

  /** One range: read {@code length} bytes at {@code fileOffset} of {@code file} into {@code chunk}, then run {@code task}. */
  private record Request(Path file, long fileOffset, int length, int chunk, Task task,
      CompletableFuture<TaskResult> result) {}

  /** A file the reader has open, and how many reads of it are in flight. */
  private static final class OpenFile {
    final int handle;
    int reads;

    OpenFile(int handle) {
      this.handle = handle;
    }
  }

  /**
   * A pump over {@code resource}, split into {@code chunkCount} chunks, reading with io_uring where
   * it works and FileChannel elsewhere.
   *
   * @throws InputException when the resource has no host view or does not split into equal chunks
   *     of a multiple of 4096 bytes (io_uring registers each chunk, page-aligned)
   */
  public IngestPump(Megakernel kernel, int resource, int chunkCount) {
    this(kernel, resource, chunkCount, IoBackends::open);
  }

  /**
   * As {@link #IngestPump(Megakernel, int, int)}, with the reader {@code readers} opens over the
   * chunks: {@code FileChannelChunkReader::new} to force FileChannel, {@code pool ->
   * IoBackends.open(pool, true)} for io_uring reads in its worker threads.
   */
  public IngestPump(Megakernel kernel, int resource, int chunkCount, Function<BufferPool, ChunkReader> readers) {
    this.kernel = kernel;
    this.resource = resource;
    MemorySegment view = kernel.resource(resource);
    if (view == null) {
      throw InputException.of(SOURCE, "resource " + resource + " has no host view (no such handle, or a DEVICE "
          + "resource on a GPU)", "allocate the chunks with Megakernel.allocateResource(bytes, ResourcePlacement.HOST_MAPPED)");
    }
    long bytes = chunkCount < 1 ? 0 : view.byteSize() / chunkCount;
    if (bytes == 0 || bytes * chunkCount != view.byteSize() || bytes % BufferPool.ALIGNMENT != 0
        || bytes > Integer.MAX_VALUE) {
      throw InputException.of(SOURCE, "resource " + resource + " of " + view.byteSize() + " bytes does not split into "
          + chunkCount + " equal chunks of a multiple of 4096 bytes under 2 GiB", "allocate chunkCount * chunkBytes "
          + "bytes with chunkBytes a multiple of 4096 (io_uring registers each chunk, page-aligned)");
    }
    this.chunkBytes = (int) bytes;
    List<MemorySegment> chunks = new ArrayList<>(chunkCount);
    for (int c = 0; c < chunkCount; c++) {
      chunks.add(view.asSlice(c * bytes, bytes));
    }
    this.reader = readers.apply(BufferPool.of(chunks));
    this.busy = new AtomicIntegerArray(chunkCount);
    this.reading = new Request[chunkCount];
    this.pump = Thread.ofPlatform().daemon().name("vyre-ingest-" + resource).start(this::run);
  }

  /** The resource the chunks live in: the handle a task's arguments name. */
  public int resource() {
    return resource;
  }

  public int chunkCount() {
    return reading.length;
  }

  public int chunkBytes() {
    return chunkBytes;
  }

  /** Where chunk {@code chunk} starts within {@link #resource()}. */
  public long chunkOffset(int chunk) {
    checkChunk(chunk);
    return (long) chunk * chunkBytes;
  }

  /** The reader in use: io_uring, or FileChannel and why (as {@link ChunkReader#backend()}). */
  public String ioBackend() {
    return reader.backend();
  }

  /** Whether {@code chunk} has a read or task under way (a submission into it would be refused). */
  public boolean isBusy(int chunk) {
    checkChunk(chunk);
    return busy.get(chunk) != 0;
  }

  /**
   * Reads {@code length} bytes at {@code fileOffset} of {@code file} into chunk {@code chunk}, then
   * publishes {@code task}, whose arguments name the bytes (resource {@link #resource()}, offset
   * {@link #chunkOffset(int)}, the length). The future completes with the task's result when it
   * finished, or fails with the {@link PipelineException} of a file that cannot be opened or a read
   * that failed or found fewer bytes (the task is then not published), or with the error the kernel's
   * publish refused the task with. Cancelling the future stops neither the read nor the task.
   *
   * @throws PipelineException changing nothing: {@code Busy} when the chunk is busy;
   *     {@code InvalidArgument} when the chunk is out of range, the range is empty, longer than a
   *     chunk or at a negative offset, or the task's tenant or opcode cannot be published;
   *     {@code Closed} when the pump is closed
   * @throws KernelException when the kernel is shut down or failed
   */
  public CompletableFuture<TaskResult> submit(Path file, long fileOffset, int length, int chunk, Task task) {
    Objects.requireNonNull(file, "file");
    checkChunk(chunk);
    if (fileOffset < 0 || length < 1 || length > chunkBytes) {
      throw PipelineException.invalidArgument("ingest chunk", "a read of " + length + " bytes at file offset " + fileOffset
          + " does not fit a chunk of " + chunkBytes + " bytes", "read 1 up to chunkBytes() bytes at offset 0 or later");
    }
    ControlLayout.checkTenant(task.tenant());
    Opcodes.validatePublishOpcode(task.opcode());
    if (!kernel.isKernelRunning()) {
      throw kernel.closedError();
    }
    if (!busy.compareAndSet(chunk, 0, 1)) {
      throw PipelineException.busy("ingest chunk", "chunk " + chunk + " is busy: its read or task has not finished",
          "submit into it once the future of its previous submission completed, or use another chunk");
    }
    Request request = new Request(file, fileOffset, length, chunk, task, new CompletableFuture<>());
    synchronized (inbox) {
      if (closing) {
        busy.set(chunk, 0);
        throw failure != null ? stoppedBy(failure) : PipelineException.closed(SOURCE,
            "submit before closing it, or open a new IngestPump");
      }
      inbox.add(request);
    }
    // Added before pumpParked is read, and the pump reads the inbox after setting it: no lost wake-up.
    if (pumpParked) {
      LockSupport.unpark(pump);
    }
    return request.result();
  }

  /**
   * Stops taking submissions, reads and publishes every range already submitted, and closes the
   * files and the reader. Idempotent. From a future's callback on the pump thread it returns at
   * once and the pump finishes after the callback.
   *
   * @throws PipelineException when the reader could not be closed (its files may stay open)
   */
  @Override
  public void close() {
    synchronized (inbox) {
      closing = true;
    }
    LockSupport.unpark(pump);
    if (Thread.currentThread() == pump) {
      return;
    }
    // Returning early would leave reads writing into the chunks.
    ThreadEnds.await(pump);
    if (closeFailure != null) {
      throw closeFailure;
    }
  }

  // ---------------------------------------------------------------- the pump thread

  /**
   * The pump thread. What stops it early fails what is left and every later submission (a
   * reader's exception is then reported by those futures; an {@link Error} goes on to the
   * uncaught-exception handler too).
   */
  private void run() {
    Throwable stoppedWith = null;
    try {
      pumpUntilClosed();
    } catch (Throwable t) {
      stoppedWith = t;
      if (t instanceof Error error) {
        throw error;
      }
    } finally {
      stop(stoppedWith);
    }
  }

  private void pumpUntilClosed() {
    while (true) {
      boolean progress = takeSubmissions();
      progress |= startReads();
      progress |= finishReads();
      if (progress) {
        readWait.reset();
      } else if (reader.inFlight() > 0) {
        waitForReads();
      } else if (closedAndEmpty()) {
        return;
      } else {
        parkUntil(null);
      }
    }
  }

  private boolean takeSubmissions() {
    synchronized (inbox) {
      if (inbox.isEmpty()) {
        return false;
      }
      for (Request request; (request = inbox.poll()) != null; ) {
        toRead.add(request);
      }
      return true;
    }
  }

  private boolean closedAndEmpty() {
    synchronized (inbox) {
      return closing && inbox.isEmpty() && toRead.isEmpty();
    }
  }

  /** Starts the read of every request taken, opening its file unless a read of it is in flight. */
  private boolean startReads() {
    boolean progress = false;
    for (Request request; (request = toRead.peek()) != null; ) {
      if (!kernel.isKernelRunning()) {
        // The chunk is the kernel's memory, freed by its shutdown: nothing may be read into it now.
        toRead.poll();
        fail(request, kernel.closedError());
        progress = true;
        continue;
      }
      OpenFile file = openFiles.get(request.file());
      if (file == null) {
        try {
          file = new OpenFile(reader.openFile(request.file()));
        } catch (PipelineException e) {
          if (e.isQueueFull() && reader.inFlight() > 0) {
            // The reader's file slots are all taken; each file in them closes after its last read
            // in flight, so this one opens then.
            return progress;
          }
          toRead.poll();
          fail(request, e);
          progress = true;
          continue;
        }
        openFiles.put(request.file(), file);
      }
      toRead.poll();
      file.reads++;
      reading[request.chunk()] = request;
      reader.submit(file.handle, request.fileOffset(), request.length(), request.chunk(), request.chunk());
      progress = true;
    }
    return progress;
  }

  /** Publishes the task of every range read in full; fails the others. */
  private boolean finishReads() {
    boolean progress = false;
    for (ReadCompletion read; (read = reader.poll()) != null; ) {
      progress = true;
      Request request = reading[read.bufferIndex()];
      reading[read.bufferIndex()] = null;
      OpenFile file = openFiles.get(request.file());
      if (--file.reads == 0) {
        openFiles.remove(request.file());
        reader.closeFile(file.handle);
      }
      if (read.failed()) {
        fail(request, read.error());
      } else if (read.bytesRead() < request.length()) {
        fail(request, PipelineException.backend("short read: " + read.bytesRead() + " of " + request.length()
            + " bytes at offset " + request.fileOffset() + " of " + request.file() + " (the file ends inside the range)."
            + " Fix: read a range that lies within the file"));
      } else {
        publish(request);
      }
    }
    return progress;
  }

  /**
   * Publishes the task of a range whose bytes are all in its chunk. They are: io_uring's completion
   * was taken with an acquire load of the completion tail (the kernel wrote the bytes before it
   * released it), and a FileChannel read ran on this thread. The publish's doorbell store is a
   * release, so a worker or GPU lane that sees the task sees the bytes.
   */
  private void publish(Request request) {
    CompletableFuture<TaskResult> task;
    try {
      task = kernel.submit(request.task());
    } catch (RuntimeException e) {
      fail(request, e);
      return;
    }
    task.whenComplete((result, error) -> finish(request, result, error));
  }

  private void finish(Request request, TaskResult result, Throwable error) {
    // Freed first: a stage chained on the future may submit into the same chunk.
    busy.set(request.chunk(), 0);
    if (error == null) {
      request.result().complete(result);
    } else {
      request.result().completeExceptionally(error);
    }
  }

  private void fail(Request request, Throwable error) {
    finish(request, null, error);
  }

  /** Polls again soon, as {@link #readWait} says; its parks end early when a submission or close arrives. */
  private void waitForReads() {
    if (readWait.parking()) {
      parkUntil(readWait);
    } else {
      readWait.idle();
    }
  }

  /** Parks until a submission or close arrives: for one idle of {@code wait}, or with no limit when it is null. */
  private void parkUntil(IdleStrategy wait) {
    pumpParked = true;
    boolean idle;
    synchronized (inbox) {
      idle = inbox.isEmpty() && !closing;
    }
    if (idle) {
      if (wait == null) {
        LockSupport.park(this);
      } else {
        wait.idle();
      }
    }
    pumpParked = false;
  }

  /**
   * Ends the pump: refuses submissions and closes the reader, which waits for its reads in flight.
   * After a close nothing else is left; after {@code stoppedWith} the requests not finished fail.
   */
  private void stop(Throwable stoppedWith) {
    synchronized (inbox) {
      closing = true;
      failure = stoppedWith;
      for (Request request; (request = inbox.poll()) != null; ) {
        toRead.add(request);
      }
    }
    try {
      reader.close();
    } catch (RuntimeException e) {
      closeFailure = e;
    }
    for (Request request : reading) {
      if (request != null) {
        toRead.add(request);
      }
    }
    RuntimeException error = null;
    for (Request request; (request = toRead.poll()) != null; ) {
      error = error != null ? error : stoppedBy(stoppedWith);
      fail(request, error);
    }
  }

  private RuntimeException stoppedBy(Throwable cause) {
    // A view of the chunks ends with the kernel's shutdown: that is the kernel stopped, not a reader failure.
    if (!kernel.isKernelRunning()) {
      return kernel.closedError();
    }
    String reason = cause.getMessage() != null ? cause.getMessage() : cause.toString();
    return PipelineException.backend("the ingest pump stopped after its reader failed (" + reason
        + "). Fix: close the pump and open a new one; report the error if it names no cause", cause);
  }

  private void checkChunk(int chunk) {
    if (chunk < 0 || chunk >= reading.length) {
      throw PipelineException.invalidArgument("ingest chunk", "there is no chunk " + chunk + " of " + reading.length,
          "use a chunk index below chunkCount()");
    }
  }
}
