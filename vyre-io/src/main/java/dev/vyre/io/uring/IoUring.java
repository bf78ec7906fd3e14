package dev.vyre.io.uring;

import static dev.vyre.io.uring.IoUringLayout.*;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.IdleStrategy;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * One io_uring instance: the ring file descriptor, its submission and completion rings mapped
 * with {@code mmap}, and registered buffers. This thread is the
 * only producer of submissions and the only consumer of completions. Not thread-safe.
 */
final class IoUring implements AutoCloseable {

  /** Ring indices are shared with the kernel; coordinates (segment, byte offset). */
  private static final VarHandle RING_INT = ValueLayout.JAVA_INT.varHandle();
  private static final String FIX = "run on Linux 5.6 or newer without a seccomp filter that blocks io_uring, or use "
      + "the FileChannel reader";

  /**
   * Retries in a row that reaped no completion after which {@link #enter} gives up on EBUSY or
   * EAGAIN: with the backoff below, about 0.55 s of a kernel that keeps refusing.
   */
  static final int MAX_FRUITLESS_RETRIES = 20;
  static final long FIRST_BACKOFF_NANOS = 50_000;
  static final long MAX_BACKOFF_NANOS = 50_000_000;

  /** Receives one completion. */
  interface CompletionHandler {
    void onCompletion(long userData, int result);
  }

  /**
   * The io_uring_enter call itself: returns how many submission entries the kernel consumed, or
   * throws {@link PipelineException} ({@code IoUringSyscall}) with the errno. A seam, so tests can
   * make the kernel refuse with EBUSY or EAGAIN, which a real ring does only under memory pressure
   * or with a completion ring overflowing.
   */
  @FunctionalInterface
  interface EnterCall {
    EnterCall SYSCALL = (calls, ringFd, toSubmit, minComplete, flags) -> calls.syscall("io_uring_enter",
        SYS_IO_URING_ENTER, ringFd, toSubmit, minComplete, flags, 0, 0, FIX);

    long enter(LinuxCalls calls, int ringFd, int toSubmit, int minComplete, int flags);
  }

  private final Arena arena = Arena.ofShared();
  private final LinuxCalls calls = new LinuxCalls(arena);
  private final EnterCall enterCall;
  private final List<MemorySegment> mappings = new ArrayList<>();
  private final int ringFd;
  private final MemorySegment sqRing;
  private final MemorySegment cqRing;
  private final MemorySegment sqes;
  private final long sqHead;
  private final long sqTail;
  private final long sqArray;
  private final int sqMask;
  private final int sqEntries;
  private final long cqHead;
  private final long cqTail;
  private final long cqes;
  private final int cqMask;
  private int localSqTail;
  private int unsubmitted;
  private boolean closed;

  /** Creates a ring with at least {@code entries} submission entries, entered through {@code enterCall}. */
  IoUring(int entries, EnterCall enterCall) {
    this.enterCall = enterCall;
    MemorySegment params = arena.allocate(PARAMS_BYTES, 8);
    try {
      ringFd = (int) calls.syscall("io_uring_setup", SYS_IO_URING_SETUP, entries, params.address(), 0, 0, 0, 0, FIX);
    } catch (RuntimeException e) {
      arena.close();
      throw e;
    }
    try {
      sqEntries = params.get(ValueLayout.JAVA_INT, PARAMS_SQ_ENTRIES);
      int cqEntries = params.get(ValueLayout.JAVA_INT, PARAMS_CQ_ENTRIES);
      int features = params.get(ValueLayout.JAVA_INT, PARAMS_FEATURES);
      sqHead = u32(params, PARAMS_SQ_OFF + SQ_OFF_HEAD);
      sqTail = u32(params, PARAMS_SQ_OFF + SQ_OFF_TAIL);
      sqArray = u32(params, PARAMS_SQ_OFF + SQ_OFF_ARRAY);
      cqHead = u32(params, PARAMS_CQ_OFF + CQ_OFF_HEAD);
      cqTail = u32(params, PARAMS_CQ_OFF + CQ_OFF_TAIL);
      cqes = u32(params, PARAMS_CQ_OFF + CQ_OFF_CQES);
      long sqBytes = sqArray + 4L * sqEntries;
      long cqBytes = cqes + CQE_BYTES * cqEntries;
      // With IORING_FEAT_SINGLE_MMAP (5.4+) one mapping at the SQ offset holds both rings.
      if ((features & IORING_FEAT_SINGLE_MMAP) != 0) {
        sqRing = map("rings", Math.max(sqBytes, cqBytes), IORING_OFF_SQ_RING);
        cqRing = sqRing;
      } else {
        sqRing = map("submission ring", sqBytes, IORING_OFF_SQ_RING);
        cqRing = map("completion ring", cqBytes, IORING_OFF_CQ_RING);
      }
      sqes = map("submission entries", SQE_BYTES * sqEntries, IORING_OFF_SQES);
      sqMask = sqRing.get(ValueLayout.JAVA_INT, u32(params, PARAMS_SQ_OFF + SQ_OFF_RING_MASK));
      cqMask = cqRing.get(ValueLayout.JAVA_INT, u32(params, PARAMS_CQ_OFF + CQ_OFF_RING_MASK));
      localSqTail = (int) RING_INT.getAcquire(sqRing, sqTail);
    } catch (RuntimeException e) {
      release();
      throw e;
    }
  }

  private MemorySegment map(String what, long length, long offset) {
    MemorySegment mapping = calls.mmap(what, length, ringFd, offset);
    mappings.add(mapping);
    return mapping;
  }

  private static long u32(MemorySegment params, long offset) {
    return Integer.toUnsignedLong(params.get(ValueLayout.JAVA_INT, offset));
  }

  int submissionEntries() {
    return sqEntries;
  }

  /** IORING_REGISTER_BUFFERS: buffer {@code i} becomes buf_index {@code i} of READ_FIXED. */
  void registerBuffers(List<MemorySegment> buffers) {
    try (Arena scratch = Arena.ofConfined()) {
      MemorySegment iovecs = scratch.allocate(IOVEC_BYTES * buffers.size(), 8);
      for (int i = 0; i < buffers.size(); i++) {
        iovecs.set(ValueLayout.JAVA_LONG, IOVEC_BYTES * i, buffers.get(i).address());
        iovecs.set(ValueLayout.JAVA_LONG, IOVEC_BYTES * i + 8, buffers.get(i).byteSize());
      }
      register("IORING_REGISTER_BUFFERS", IORING_REGISTER_BUFFERS, iovecs, buffers.size());
    }
  }

  private void register(String what, int opcode, MemorySegment argument, int count) {
    calls.syscall("io_uring_register(" + what + ")", SYS_IO_URING_REGISTER, ringFd, opcode, argument.address(), count,
        0, 0, FIX);
  }

  LinuxCalls calls() {
    return calls;
  }

  /**
   * Queues READ_FIXED of {@code length} bytes at {@code fileOffset} of file descriptor {@code fd}
   * into {@code address}, inside registered buffer {@code bufferIndex}.
   *
   * @return false when the submission ring is full
   */
  boolean queueReadFixed(int fd, long address, int length, long fileOffset, int bufferIndex, long userData,
      boolean async) {
    return queue(IORING_OP_READ_FIXED, async ? IOSQE_ASYNC : 0, fd, address, length, fileOffset, bufferIndex, userData);
  }

  /**
   * Queues a plain READ of {@code length} bytes at {@code fileOffset} of file descriptor {@code fd}
   * into {@code address}, which need not lie in a registered buffer (the kernel pins its pages for
   * this read alone).
   *
   * @return false when the submission ring is full
   */
  boolean queueRead(int fd, long address, int length, long fileOffset, long userData) {
    return queue(IORING_OP_READ, 0, fd, address, length, fileOffset, 0, userData);
  }

  /**
   * Queues OPENAT of the NUL-terminated path at {@code pathAddress} (relative to the working
   * directory) with open(2) flags {@code openFlags}; the completion's result is the descriptor or
   * -errno. The kernel copies the path when the entry is submitted.
   *
   * @return false when the submission ring is full
   */
  boolean queueOpenAt(long pathAddress, int openFlags, long userData) {
    return queue(IORING_OP_OPENAT, 0, AT_FDCWD, pathAddress, 0, 0, 0, userData, openFlags);
  }

  /**
   * Queues CLOSE of descriptor {@code fd}.
   *
   * @return false when the submission ring is full
   */
  boolean queueClose(int fd, long userData) {
    return queue(IORING_OP_CLOSE, 0, fd, 0, 0, 0, 0, userData);
  }

  private boolean queue(byte opcode, int flags, int fd, long address, int length, long fileOffset, int bufferIndex,
      long userData) {
    return queue(opcode, flags, fd, address, length, fileOffset, bufferIndex, userData, 0);
  }

  private boolean queue(byte opcode, int flags, int fd, long address, int length, long fileOffset, int bufferIndex,
      long userData, int opFlags) {
    int head = (int) RING_INT.getAcquire(sqRing, sqHead);
    if (localSqTail - head >= sqEntries) {
      return false;
    }
    int index = localSqTail & sqMask;
    long sqe = SQE_BYTES * index;
    // Word by word rather than through a slice: queueing allocates nothing.
    for (long word = 0; word < SQE_BYTES; word += 8) {
      sqes.set(ValueLayout.JAVA_LONG, sqe + word, 0);
    }
    sqes.set(ValueLayout.JAVA_BYTE, sqe + SQE_OPCODE, opcode);
    sqes.set(ValueLayout.JAVA_BYTE, sqe + SQE_FLAGS, (byte) flags);
    sqes.set(ValueLayout.JAVA_INT, sqe + SQE_FD, fd);
    sqes.set(ValueLayout.JAVA_LONG, sqe + SQE_OFF, fileOffset);
    sqes.set(ValueLayout.JAVA_LONG, sqe + SQE_ADDR, address);
    sqes.set(ValueLayout.JAVA_INT, sqe + SQE_LEN, length);
    sqes.set(ValueLayout.JAVA_LONG, sqe + SQE_USER_DATA, userData);
    sqes.set(ValueLayout.JAVA_SHORT, sqe + SQE_BUF_INDEX, (short) bufferIndex);
    sqes.set(ValueLayout.JAVA_INT, sqe + SQE_OP_FLAGS, opFlags);
    sqRing.set(ValueLayout.JAVA_INT, sqArray + 4L * index, index);
    localSqTail++;
    // Release: the kernel reads the tail with acquire, so it sees the entry written above.
    RING_INT.setRelease(sqRing, sqTail, localSqTail);
    unsubmitted++;
    return true;
  }

  /** Entries queued that no io_uring_enter has handed to the kernel yet. */
  int unsubmitted() {
    return unsubmitted;
  }

  /**
   * Takes back the entries no io_uring_enter has consumed, after an enter that failed: each one's
   * user_data goes to {@code withdrawn}, and no later enter submits them. With no SQPOLL thread the
   * kernel reads the submission ring only inside io_uring_enter, from its head to the tail, so
   * moving the tail back to the head removes exactly those entries. The tail moves first, so an
   * exception from {@code withdrawn} leaves none behind; {@code withdrawn} must not queue entries,
   * which would overwrite the ones still to be handed over.
   */
  void withdrawUnsubmitted(LongConsumer withdrawn) {
    int head = (int) RING_INT.getAcquire(sqRing, sqHead);
    int tail = localSqTail;
    localSqTail = head;
    RING_INT.setRelease(sqRing, sqTail, localSqTail);
    unsubmitted = 0;
    for (int at = head; at != tail; at++) {
      int index = sqRing.get(ValueLayout.JAVA_INT, sqArray + 4L * (at & sqMask));
      withdrawn.accept(sqes.get(ValueLayout.JAVA_LONG, SQE_BYTES * index + SQE_USER_DATA));
    }
  }

  /**
   * io_uring_enter: submits queued entries and, when {@code minComplete > 0}, waits until that
   * many completions are available. Retries EINTR at once.
   *
   * <p>EBUSY (with IORING_FEAT_NODROP: completions overflowed the completion ring and are not all
   * flushed back into it; without it: more requests than the ring has room to complete) and EAGAIN
   * (the kernel could not allocate what a request needs) mean "reap completions, then try again"
   * in io_uring_enter(2), and the kernel submitted nothing. So the ready completions go to
   * {@code handler}, each counting toward {@code minComplete}, and the call is entered again; when
   * there was nothing to reap, after a backoff that doubles from {@value #FIRST_BACKOFF_NANOS} ns up to
   * {@value #MAX_BACKOFF_NANOS} ns. After {@value #MAX_FRUITLESS_RETRIES} retries in a row that reaped
   * nothing the errno is thrown.
   */
  void enter(int minComplete, CompletionHandler handler) {
    int wait = minComplete;
    int fruitless = 0;
    // Made at the first busy entry only: entries that succeed, nearly all, allocate nothing.
    IdleStrategy.Backoff backoff = null;
    while (unsubmitted > 0 || wait > 0) {
      try {
        long submitted = enterCall.enter(calls, ringFd, unsubmitted, wait, wait > 0 ? IORING_ENTER_GETEVENTS : 0);
        unsubmitted -= (int) submitted;
        return;
      } catch (PipelineException e) {
        long errno = e.fields().get("errno") instanceof Long value ? value : -1;
        if (errno == Errno.EINTR) {
          continue;
        }
        if (errno != Errno.EBUSY && errno != Errno.EAGAIN) {
          throw e;
        }
        // Reaping may queue the rest of a short read, which the next entry submits too.
        int reaped = drainCompletions(handler);
        if (reaped > 0) {
          wait = Math.max(0, wait - reaped);
          fruitless = 0;
          if (backoff != null) {
            backoff.reset();
          }
        } else if (++fruitless > MAX_FRUITLESS_RETRIES) {
          throw PipelineException.ioUringSyscall("io_uring_enter", (int) errno, Errno.name((int) errno)
              + " on " + (MAX_FRUITLESS_RETRIES + 1) + " entries in a row over about half a second with no completion"
              + " to reap (the kernel is short of memory for requests, or completions pile up unreaped); free memory,"
              + " scan with fewer --buffers, or use the FileChannel reader");
        } else {
          if (backoff == null) {
            backoff = IdleStrategy.backoff(0, 0, FIRST_BACKOFF_NANOS, MAX_BACKOFF_NANOS);
          }
          backoff.idle();
        }
      }
    }
  }

  /** Hands every available completion to {@code handler}; returns how many. */
  int drainCompletions(CompletionHandler handler) {
    int head = (int) RING_INT.get(cqRing, cqHead);
    // Acquire: the entries up to the tail were written by the kernel before it released the tail.
    int tail = (int) RING_INT.getAcquire(cqRing, cqTail);
    int count = 0;
    while (head != tail) {
      long cqe = cqes + CQE_BYTES * (head & cqMask);
      long userData = cqRing.get(ValueLayout.JAVA_LONG, cqe + CQE_USER_DATA);
      int result = cqRing.get(ValueLayout.JAVA_INT, cqe + CQE_RES);
      head++;
      // Release: the kernel may reuse the entry once it sees the new head.
      RING_INT.setRelease(cqRing, cqHead, head);
      handler.onCompletion(userData, result);
      count++;
    }
    return count;
  }

  /** Closing the ring fd makes the kernel finish or cancel its requests and drop the registrations. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    release();
  }

  private void release() {
    mappings.forEach(calls::munmap);
    calls.close(ringFd);
    arena.close();
  }
}
