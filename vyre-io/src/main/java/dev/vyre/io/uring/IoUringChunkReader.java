package dev.vyre.io.uring;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.BufferPool;
import dev.vyre.io.ChunkReader;
import dev.vyre.io.ReadCompletion;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * A {@link ChunkReader} on io_uring: the pool's buffers are registered (IORING_REGISTER_BUFFERS),
 * so each chunk is one READ_FIXED with no per-read page pinning. Files are not registered: putting
 * each into the registered file table and taking it out again costs two io_uring_register calls
 * per file, more than a tree of small files, one read each, saves on fd lookups. A read's user_data
 * is its buffer index; a short read is continued until the chunk is full or the file ends.
 *
 * <p>A read of cached pages completes inline: io_uring_enter copies the bytes in the calling
 * thread, so reads run one after another. With {@code parallelReads} every read is handed to the
 * kernel's io-wq workers (IOSQE_ASYNC), which copy several chunks at once on other cores.
 */
public final class IoUringChunkReader implements ChunkReader {

  /** Files open at once. */
  public static final int MAX_OPEN_FILES = 64;
  /** Registered buffers per ring on every kernel since 5.1 (UIO_MAXIOV). */
  public static final int MAX_BUFFERS = 1024;

  private static final String READ_FIX = "check the file (a device error or a file truncated while it was read), or "
      + "use the FileChannel reader";

  private final BufferPool pool;
  private final IoUring ring;
  private final int[] fds = new int[MAX_OPEN_FILES];
  private final int[] readsPerFile = new int[MAX_OPEN_FILES];
  private final int[] file;
  private final long[] fileOffset;
  /** Where in its buffer each buffer's read starts. */
  private final long[] bufferOffset;
  private final int[] length;
  private final int[] done;
  private final long[] userData;
  private final ArrayDeque<ReadCompletion> completed = new ArrayDeque<>();
  private final IoUring.CompletionHandler handler = this::onCompletion;
  private final boolean parallelReads;
  private boolean closed;

  /**
   * Sets up a ring sized for the pool and registers the pool's buffers.
   *
   * @throws PipelineException when io_uring is unavailable ({@code IoUringSyscall} with the errno)
   */
  public IoUringChunkReader(BufferPool pool) {
    this(pool, false);
  }

  /** As {@link #IoUringChunkReader(BufferPool)}, with reads run by io-wq workers when asked. */
  public IoUringChunkReader(BufferPool pool, boolean parallelReads) {
    this(pool, parallelReads, IoUring.EnterCall.SYSCALL);
  }

  /** As {@link #IoUringChunkReader(BufferPool, boolean)}, entering the ring through {@code enterCall}. */
  IoUringChunkReader(BufferPool pool, boolean parallelReads, IoUring.EnterCall enterCall) {
    this.parallelReads = parallelReads;
    if (pool.size() > MAX_BUFFERS) {
      throw InputException.of("chunk buffer pool", pool.size() + " buffers exceed the " + MAX_BUFFERS
          + " io_uring can register", "use fewer, larger buffers");
    }
    this.pool = pool;
    this.ring = new IoUring(pool.size(), enterCall);
    try {
      MemorySegment[] buffers = new MemorySegment[pool.size()];
      Arrays.setAll(buffers, pool::buffer);
      ring.registerBuffers(Arrays.asList(buffers));
    } catch (RuntimeException e) {
      ring.close();
      throw e;
    }
    Arrays.fill(fds, -1);
    int n = pool.size();
    file = new int[n];
    fileOffset = new long[n];
    bufferOffset = new long[n];
    length = new int[n];
    done = new int[n];
    userData = new long[n];
  }

  @Override
  public String backend() {
    return parallelReads ? "io_uring (parallel reads in io-wq workers)" : "io_uring";
  }

  @Override
  public BufferPool pool() {
    return pool;
  }

  @Override
  public int openFile(Path path) {
    ensureOpen();
    int slot = 0;
    while (slot < MAX_OPEN_FILES && fds[slot] >= 0) {
      slot++;
    }
    if (slot == MAX_OPEN_FILES) {
      throw PipelineException.queueFull("open files", "all " + MAX_OPEN_FILES + " file slots are open",
          "close a file before opening another");
    }
    fds[slot] = ring.calls().open(path);
    return slot;
  }

  /** Takes {@code fd} (an open file a test chose) into a free slot, as openFile does. */
  int register(int fd) {
    int slot = 0;
    while (slot < MAX_OPEN_FILES && fds[slot] >= 0) {
      slot++;
    }
    fds[slot] = fd;
    return slot;
  }

  @Override
  public void closeFile(int slot) {
    requireOpenFile(slot);
    if (readsPerFile[slot] > 0) {
      throw PipelineException.busy("open files", "file handle " + slot + " has " + readsPerFile[slot]
          + " read(s) in flight", "await their completions before closing the file");
    }
    ring.calls().close(fds[slot]);
    fds[slot] = -1;
  }

  @Override
  public void submit(int slot, long offset, int bytes, int bufferIndex, long into, long data) {
    ensureOpen();
    requireOpenFile(slot);
    if (offset < 0) {
      throw PipelineException.invalidArgument("chunk reader", "file offset " + offset + " is negative",
          "read at offset 0 or later");
    }
    pool.claim(bufferIndex, into, bytes);
    file[bufferIndex] = slot;
    bufferOffset[bufferIndex] = into;
    fileOffset[bufferIndex] = offset;
    length[bufferIndex] = bytes;
    done[bufferIndex] = 0;
    userData[bufferIndex] = data;
    readsPerFile[slot]++;
    queueRest(bufferIndex);
    ring.enter(0, handler);
  }

  /** Each buffer has at most one entry queued and the ring has an entry per buffer, so this fits. */
  private void queueRest(int buffer) {
    int at = done[buffer];
    boolean queued = ring.queueReadFixed(fds[file[buffer]], pool.buffer(buffer).address() + bufferOffset[buffer] + at, length[buffer] - at,
        fileOffset[buffer] + at, buffer, buffer, parallelReads);
    if (!queued) {
      throw PipelineException.queueFull("submission", "the io_uring submission ring is full",
          "use a ring with an entry per buffer");
    }
  }

  @Override
  public int inFlight() {
    return pool.busyCount();
  }

  @Override
  public ReadCompletion await() {
    ensureOpen();
    while (completed.isEmpty()) {
      if (pool.busyCount() == 0) {
        throw PipelineException.backend("await() was called with no read in flight");
      }
      ring.enter(ring.drainCompletions(handler) == 0 ? 1 : 0, handler);
    }
    return take();
  }

  @Override
  public ReadCompletion poll() {
    ensureOpen();
    if (completed.isEmpty() && pool.busyCount() > 0) {
      // Reading the completion ring needs no syscall; enter only submits re-queued short reads.
      ring.drainCompletions(handler);
      ring.enter(0, handler);
    }
    return completed.isEmpty() ? null : take();
  }

  private ReadCompletion take() {
    ReadCompletion completion = completed.poll();
    pool.release(completion.bufferIndex());
    readsPerFile[file[completion.bufferIndex()]]--;
    return completion;
  }

  /** Finishes a read, or continues it after a short read or an interrupted one. */
  private void onCompletion(long data, int result) {
    int buffer = (int) data;
    if (result == -Errno.EINTR || result == -Errno.EAGAIN) {
      queueRest(buffer);
    } else if (result < 0) {
      completed.add(new ReadCompletion(userData[buffer], buffer, done[buffer],
          PipelineException.ioUringSyscall("read (READ_FIXED)", -result, Errno.name(-result) + ": " + READ_FIX)));
    } else {
      done[buffer] += result;
      if (result > 0 && done[buffer] < length[buffer]) {
        queueRest(buffer);
      } else {
        completed.add(new ReadCompletion(userData[buffer], buffer, done[buffer], null));
      }
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    // The buffers belong to the caller, so no read may still be writing into them afterwards.
    while (pool.busyCount() > 0) {
      await();
    }
    closed = true;
    for (int slot = 0; slot < MAX_OPEN_FILES; slot++) {
      if (fds[slot] >= 0) {
        ring.calls().close(fds[slot]);
        fds[slot] = -1;
      }
    }
    ring.close();
  }

  private void requireOpenFile(int slot) {
    if (slot < 0 || slot >= MAX_OPEN_FILES || fds[slot] < 0) {
      throw PipelineException.backend("file handle " + slot + " is not open");
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw PipelineException.backend("the io_uring chunk reader is closed");
    }
  }
}
