package dev.vyre.io.uring;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.BufferPool;
import dev.vyre.io.ChunkReader;
import dev.vyre.io.ReadCompletion;
import dev.vyre.io.PathBytes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 * <p>Files are opened ahead: {@link #expect} queues an OPENAT (non-blocking, as {@link LinuxCalls#open})
 * for each of the next files, submitted with the next read, so that a tree of small files costs no
 * open(2) per file on the calling thread; {@link #openFile} takes the descriptor and checks it has
 * offsets (a FIFO swapped in after the walk is refused, as by the synchronous open). Such a
 * descriptor stays non-blocking, which regular files ignore, except where a read of it comes back
 * EAGAIN: then it is made blocking and the read is queued again. Files are closed by CLOSE entries,
 * submitted with the next read.
 *
 * <p>A read of cached pages completes inline: io_uring_enter copies the bytes in the calling
 * thread, so reads run one after another. With {@code parallelReads} every read of at least
 * {@link #ASYNC_MIN_BYTES} is handed to the kernel's io-wq workers (IOSQE_ASYNC), which copy several
 * chunks at once on other cores; a smaller one (a small file of a tree) is still read inline, where
 * the copy costs less than a worker's hand-off, for which the scan would wait file after file.
 */
public final class IoUringChunkReader implements ChunkReader {

  /** Files open at once. */
  public static final int MAX_OPEN_FILES = 64;
  /** Registered buffers per ring on every kernel since 5.1 (UIO_MAXIOV). */
  public static final int MAX_BUFFERS = 1024;
  /** Files opened ahead at most: enough to batch a tree's small files, few enough to hold open. */
  static final int OPEN_AHEAD = 32;
  /** The smallest read a parallel reader hands to io-wq workers. */
  static final int ASYNC_MIN_BYTES = 128 << 10;
  /** Bytes of a path opened ahead, its NUL included (PATH_MAX); a longer one is opened when asked. */
  private static final int PATH_BYTES = 4096;
  /** user_data of an OPENAT (the entry's index in the low bits) and of a CLOSE; a read's is its buffer. */
  private static final long OPEN_DATA = 1L << 32;
  private static final long CLOSE_DATA = 2L << 32;
  /** user_data of a range of {@link #readAll} (its index in the low bits). */
  private static final long RANGE_DATA = 3L << 32;
  private static final int NOT_AHEAD = Integer.MIN_VALUE;

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
  /** The pool's buffers are registered: reads are READ_FIXED, else plain READs. */
  private final boolean registered;
  /** The descriptor in each slot was opened ahead and is still non-blocking. */
  private final boolean[] nonBlocking = new boolean[MAX_OPEN_FILES];
  /** Files opened ahead, oldest first from {@link #aheadHead}: path, OPENAT result, whether it came. */
  private final Path[] aheadPath = new Path[OPEN_AHEAD];
  private final int[] aheadResult = new int[OPEN_AHEAD];
  private final boolean[] aheadDone = new boolean[OPEN_AHEAD];
  /** Their NUL-terminated names, PATH_BYTES each, read by the kernel when the OPENATs are submitted. */
  private final MemorySegment aheadNames = Arena.ofAuto().allocate((long) OPEN_AHEAD * PATH_BYTES);
  private int aheadHead;
  private int aheadCount;
  /** OPENATs and CLOSEs submitted or queued whose completions have not come. */
  private int opensInFlight;
  private int closesInFlight;
  /** OPENAT failed with EINVAL, as on a kernel without it: files are opened when asked. */
  private boolean aheadRefused;
  private boolean closed;
  // The ranges of the readAll running: its arguments, each range's bytes so far, and the ranges whose
  // entry (first or continued) waits for room in the submission ring.
  private int rangeBuffer;
  private int[] rangeFiles;
  private long[] rangeFileOffsets;
  private int[] rangeLengths;
  private long[] rangeBufferOffsets;
  private ReadCompletion[] rangeCompletions;
  private int[] rangeDone = new int[0];
  /** A queue of range indices, each at most once (a range has one entry queued or in flight at a time). */
  private int[] rangesToQueue = new int[0];
  private int toQueueHead;
  private int toQueueCount;
  private int rangeCount;
  private int rangesLeft;

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
    this(pool, parallelReads, true, IoUring.EnterCall.SYSCALL);
  }

  /**
   * A reader that does not register the pool's buffers: each read is a plain READ, for which the
   * kernel pins the pages it fills for that read alone. For a reader that fills few of the buffers
   * (small files, {@link dev.vyre.io.IoBackends#openUnregistered}), where registering all of them,
   * pinning every page, costs more than its reads (milliseconds for a 64 MiB pool).
   */
  public static IoUringChunkReader unregistered(BufferPool pool) {
    return new IoUringChunkReader(pool, false, false, IoUring.EnterCall.SYSCALL);
  }

  /** As {@link #IoUringChunkReader(BufferPool, boolean)}, entering the ring through {@code enterCall}. */
  IoUringChunkReader(BufferPool pool, boolean parallelReads, IoUring.EnterCall enterCall) {
    this(pool, parallelReads, true, enterCall);
  }

  private IoUringChunkReader(BufferPool pool, boolean parallelReads, boolean registered, IoUring.EnterCall enterCall) {
    this.parallelReads = parallelReads;
    this.registered = registered;
    if (pool.size() > MAX_BUFFERS) {
      throw InputException.of("chunk buffer pool", pool.size() + " buffers exceed the " + MAX_BUFFERS
          + " io_uring can register", "use fewer, larger buffers");
    }
    this.pool = pool;
    // An entry per buffer, per file opened ahead and per CLOSE queued between two entries.
    this.ring = new IoUring(pool.size() + OPEN_AHEAD + MAX_OPEN_FILES, enterCall);
    try {
      if (registered) {
        MemorySegment[] buffers = new MemorySegment[pool.size()];
        Arrays.setAll(buffers, pool::buffer);
        ring.registerBuffers(Arrays.asList(buffers));
      }
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
    return parallelReads ? "io_uring (parallel reads in io-wq workers)" : registered ? "io_uring" : "io_uring (unregistered buffers)";
  }

  @Override
  public BufferPool pool() {
    return pool;
  }

  /**
   * Queues an OPENAT of {@code path}, submitted with the next read or open; false when {@link
   * #OPEN_AHEAD} files are already opened ahead (or the ring is full), so that the caller says it again later.
   */
  @Override
  public boolean expect(Path path) {
    ensureOpen();
    if (aheadCount == OPEN_AHEAD || aheadRefused) {
      return false;
    }
    byte[] name = PathBytes.of(path);
    if (name.length >= PATH_BYTES) {
      // Opened by openFile itself, which takes names of any length.
      return true;
    }
    int entry = (aheadHead + aheadCount) % OPEN_AHEAD;
    long at = (long) entry * PATH_BYTES;
    MemorySegment.copy(name, 0, aheadNames, ValueLayout.JAVA_BYTE, at, name.length);
    aheadNames.set(ValueLayout.JAVA_BYTE, at + name.length, (byte) 0);
    if (!ring.queueOpenAt(aheadNames.address() + at, LinuxCalls.OPEN_AHEAD_FLAGS, OPEN_DATA | entry)) {
      return false;
    }
    aheadPath[entry] = path;
    aheadDone[entry] = false;
    aheadCount++;
    opensInFlight++;
    return true;
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
    int fd = takeAhead(path);
    if (fd == NOT_AHEAD) {
      fds[slot] = ring.calls().open(path);
      nonBlocking[slot] = false;
    } else {
      fds[slot] = fd;
      nonBlocking[slot] = true;
    }
    return slot;
  }

  /**
   * The descriptor opened ahead for {@code path}, once its OPENAT has come and the file has offsets
   * to read at; NOT_AHEAD when it was not opened ahead. Files expected before it and not asked for
   * are closed.
   *
   * @throws PipelineException with the errno of the open, as {@link LinuxCalls#open} throws it
   */
  private int takeAhead(Path path) {
    int found = -1;
    for (int i = 0; i < aheadCount && found < 0; i++) {
      Path expected = aheadPath[(aheadHead + i) % OPEN_AHEAD];
      if (expected == path || expected.equals(path)) {
        found = i;
      }
    }
    if (found < 0) {
      return NOT_AHEAD;
    }
    for (int i = 0; i < found; i++) {
      int skipped = popAhead();
      if (skipped >= 0) {
        closeDescriptor(skipped);
      }
    }
    int result = popAhead();
    if (result == -Errno.EINVAL) {
      aheadRefused = true;
      return NOT_AHEAD;
    }
    if (result < 0) {
      throw PipelineException.ioUringSyscall("open(" + path + ")", -result, Errno.name(-result)
          + ": check that the file exists and is readable");
    }
    try {
      ring.calls().requireOffsets(result, path);
    } catch (RuntimeException e) {
      closeDescriptor(result);
      throw e;
    }
    return result;
  }

  /** Waits for the oldest OPENAT if it has not come, takes it off the queue, returns its result. */
  private int popAhead() {
    int entry = aheadHead;
    while (!aheadDone[entry]) {
      ring.enter(ring.drainCompletions(handler) == 0 ? 1 : 0, handler);
    }
    aheadPath[entry] = null;
    aheadHead = (aheadHead + 1) % OPEN_AHEAD;
    aheadCount--;
    return aheadResult[entry];
  }

  /** Closes {@code fd} by a CLOSE entry, submitted with the next one; at once if the ring is full. */
  private void closeDescriptor(int fd) {
    if (ring.queueClose(fd, CLOSE_DATA)) {
      closesInFlight++;
    } else {
      ring.calls().close(fd);
    }
  }

  /** Takes {@code fd} (an open file a test chose) into a free slot, as openFile does. */
  int register(int fd) {
    int slot = 0;
    while (slot < MAX_OPEN_FILES && fds[slot] >= 0) {
      slot++;
    }
    fds[slot] = fd;
    nonBlocking[slot] = false;
    return slot;
  }

  @Override
  public void closeFile(int slot) {
    requireOpenFile(slot);
    if (readsPerFile[slot] > 0) {
      throw PipelineException.busy("open files", "file handle " + slot + " has " + readsPerFile[slot]
          + " read(s) in flight", "await their completions before closing the file");
    }
    closeDescriptor(fds[slot]);
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
    int rest = length[buffer] - at;
    long address = pool.buffer(buffer).address() + bufferOffset[buffer] + at;
    if (!queueRead(file[buffer], address, rest, fileOffset[buffer] + at, buffer, buffer,
        parallelReads && rest >= ASYNC_MIN_BYTES)) {
      throw PipelineException.queueFull("submission", "the io_uring submission ring is full",
          "use a ring with an entry per buffer");
    }
  }

  /**
   * Queues every range (as many as the submission ring takes, then the rest as entries complete) and
   * enters the ring until all are done: a pack of small files costs a few io_uring_enter calls, not
   * one a file.
   */
  @Override
  public void readAll(int bufferIndex, int count, int[] files, long[] fileOffsets, int[] lengths,
      long[] bufferOffsets, ReadCompletion[] completions) {
    ensureOpen();
    if (pool.busyCount() > 0) {
      throw PipelineException.busy("chunk reader", pool.busyCount() + " read(s) in flight",
          "await them before reading ranges together");
    }
    long end = 1;
    for (int i = 0; i < count; i++) {
      requireOpenFile(files[i]);
      if (fileOffsets[i] < 0 || lengths[i] < 1 || bufferOffsets[i] < 0) {
        throw PipelineException.invalidArgument("chunk reader", "range " + i + " (" + lengths[i]
            + " bytes at file offset " + fileOffsets[i] + " to buffer offset " + bufferOffsets[i] + ") is not a read",
            "read 1 byte or more at offsets 0 or later");
      }
      end = Math.max(end, bufferOffsets[i] + lengths[i]);
    }
    if (count == 0) {
      return;
    }
    pool.claim(bufferIndex, 0, end);
    rangeBuffer = bufferIndex;
    rangeFiles = files;
    rangeFileOffsets = fileOffsets;
    rangeLengths = lengths;
    rangeBufferOffsets = bufferOffsets;
    rangeCompletions = completions;
    if (rangeDone.length < count) {
      rangeDone = new int[count];
      rangesToQueue = new int[count];
    }
    Arrays.fill(rangeDone, 0, count, 0);
    toQueueHead = 0;
    toQueueCount = 0;
    for (int i = 0; i < count; i++) {
      readsPerFile[files[i]]++;
      toQueue(i);
    }
    rangeCount = count;
    rangesLeft = count;
    finishRanges();
  }

  /**
   * Queues and enters until every range of the running readAll is done, then gives its buffer back.
   * If entering fails, the ranges in flight keep the buffer: {@link #close} waits for them.
   */
  private void finishRanges() {
    while (rangesLeft > 0) {
      while (toQueueCount > 0 && queueRange(rangesToQueue[toQueueHead])) {
        toQueueHead = (toQueueHead + 1) % rangesToQueue.length;
        toQueueCount--;
      }
      ring.enter(ring.drainCompletions(handler) == 0 ? 1 : 0, handler);
    }
    for (int i = 0; i < rangeCount; i++) {
      readsPerFile[rangeFiles[i]]--;
    }
    rangeCompletions = null;
    pool.release(rangeBuffer);
  }

  private void toQueue(int range) {
    rangesToQueue[(toQueueHead + toQueueCount) % rangesToQueue.length] = range;
    toQueueCount++;
  }

  /** Queues the rest of range {@code i}; false when the submission ring is full. */
  private boolean queueRange(int i) {
    int at = rangeDone[i];
    int rest = rangeLengths[i] - at;
    long address = pool.buffer(rangeBuffer).address() + rangeBufferOffsets[i] + at;
    return queueRead(rangeFiles[i], address, rest, rangeFileOffsets[i] + at, rangeBuffer, RANGE_DATA | i, false);
  }

  /**
   * Queues a read of {@code length} bytes of file {@code slot} at {@code fileOffset} to {@code address},
   * which lies in buffer {@code buffer}: READ_FIXED when the buffers are registered (handed to io-wq
   * with {@code async}), else a plain READ; false when the submission ring is full.
   */
  private boolean queueRead(int slot, long address, int length, long fileOffset, int buffer, long data, boolean async) {
    return registered
        ? ring.queueReadFixed(fds[slot], address, length, fileOffset, buffer, data, async)
        : ring.queueRead(fds[slot], address, length, fileOffset, data);
  }

  /** A range of the running readAll finished, or is continued after a short or interrupted read. */
  private void onRangeCompletion(int i, int result) {
    if (readsOn(rangeFiles[i], result, rangeDone, i, rangeLengths[i])) {
      toQueue(i);
    } else {
      rangeCompletions[i] = new ReadCompletion(i, rangeBuffer, rangeDone[i], readError(result));
      rangesLeft--;
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
    if (data >= RANGE_DATA) {
      onRangeCompletion((int) (data - RANGE_DATA), result);
      return;
    }
    if (data >= OPEN_DATA) {
      onOpenOrClose(data, result);
      return;
    }
    int buffer = (int) data;
    if (readsOn(file[buffer], result, done, buffer, length[buffer])) {
      queueRest(buffer);
    } else {
      completed.add(new ReadCompletion(userData[buffer], buffer, done[buffer], readError(result)));
    }
  }

  /**
   * Adds what a read of file {@code slot} that completed with {@code result} brought to {@code
   * bytes[i]} of {@code total}, and says whether the rest must be queued: after a short read, and
   * after an interrupted one or EAGAIN (queued again as it was). A descriptor opened ahead is
   * non-blocking; where its read comes back EAGAIN (a file system that honours O_NONBLOCK for files,
   * or an old kernel's io_uring) it is made blocking from now on.
   */
  private boolean readsOn(int slot, int result, int[] bytes, int i, int total) {
    if (result == -Errno.EAGAIN && nonBlocking[slot]) {
      ring.calls().clearNonBlocking(fds[slot], "file handle " + slot);
      nonBlocking[slot] = false;
      return true;
    }
    if (result == -Errno.EINTR || result == -Errno.EAGAIN) {
      return true;
    }
    bytes[i] += Math.max(0, result);
    return result > 0 && bytes[i] < total;
  }

  /** A failed read's error (a negative result is its -errno); null for a read that ended well. */
  private static PipelineException readError(int result) {
    return result >= 0 ? null
        : PipelineException.ioUringSyscall("read (READ_FIXED)", -result, Errno.name(-result) + ": " + READ_FIX);
  }

  /** An OPENAT's descriptor (or -errno) for its entry, or a CLOSE done (its result is not looked at). */
  private void onOpenOrClose(long data, int result) {
    if (data >= CLOSE_DATA) {
      closesInFlight--;
      return;
    }
    int entry = (int) (data - OPEN_DATA);
    aheadResult[entry] = result;
    aheadDone[entry] = true;
    opensInFlight--;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    // The buffers belong to the caller, so no read may still be writing into them afterwards.
    if (rangeCompletions != null) {
      finishRanges();
    }
    while (pool.busyCount() > 0) {
      await();
    }
    // Opens ahead that were never asked for are closed, and every CLOSE has come before the ring goes.
    while (aheadCount > 0) {
      int fd = popAhead();
      if (fd >= 0) {
        closeDescriptor(fd);
      }
    }
    while (opensInFlight > 0 || closesInFlight > 0 || ring.unsubmitted() > 0) {
      ring.enter(ring.drainCompletions(handler) == 0 && opensInFlight + closesInFlight > 0 ? 1 : 0, handler);
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
