package dev.vyre.io.uring;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.IdleStrategy;
import java.lang.foreign.MemorySegment;

/**
 * Reads of file ranges into native memory on one io_uring, up to {@link #tags()} of them in flight,
 * each named by a tag its caller picks: the reader of the IO request pump
 * ({@code dev.vyre.io.IoRequestPump}), one per pump thread. {@link #read} only queues;
 * {@link #submit} hands every read queued since the last call to the kernel in one
 * io_uring_enter; {@link #reap} takes the completions that have arrived, without a syscall and
 * without waiting, so the caller goes on polling for work while its reads run. A read that stops
 * short is continued from where it stopped until its range is full or the file ends.
 *
 * <p>Plain IORING_OP_READ of a plain descriptor, not READ_FIXED into registered buffers as
 * vyre's {@code ResidentIoLoop} and {@link IoUringChunkReader} use: a buffer
 * must be registered before a read names it, and the destinations here are a kernel's resources,
 * which a program allocates whenever it likes after the pump has started. Each would have to be
 * registered with every pump thread's ring (registering again needs a ring with nothing in
 * flight, or Linux 5.13's buffer-table updates) and stay pinned for the ring's life: locked memory
 * the size of every resource, against a 64 KiB to 8 MiB {@code ulimit -l} on many systems. A plain
 * READ has the kernel pin the destination's pages for that read alone, which costs little next to
 * the copy out of the page cache or the disk read; and sources, opened at any time from any
 * thread, stay plain descriptors for the same reason.
 *
 * <p>One thread at a time queues, submits and reaps: a ring has a single producer and consumer.
 */
public final class IoUringRangeReader implements AutoCloseable {

  /** Receives a read that ended. */
  @FunctionalInterface
  public interface Finished {
    /**
     * Read {@code tag} ended after {@code bytesRead} bytes: all it asked for, or fewer where the
     * file ended, when {@code failure} is null; else it failed, and {@code failure} says why. The
     * tag is free again when this is called.
     */
    void finished(int tag, long bytesRead, String failure);
  }

  /** Most reads in flight on one reader. */
  public static final int MAX_TAGS = 4096;
  /** The most one entry reads; the kernel stops a read at 2 GiB - 4 KiB anyway, and the rest is continued. */
  static final long MAX_ENTRY_BYTES = 1L << 30;
  /** How often {@link #close} looks for completions when the kernel refuses to wait for them. */
  private static final IdleStrategy CLOSE_POLL = IdleStrategy.sleeping(100_000);

  private final IoUring ring;
  private final Finished finished;
  private final long maxEntryBytes;
  private final IoUring.CompletionHandler onCompletion = this::onCompletion;
  private final int[] fd;
  private final long[] address;
  private final long[] length;
  private final long[] fileOffset;
  private final long[] done;
  private final boolean[] busy;
  private int inFlight;
  private boolean closed;

  /**
   * Sets up a ring for {@code tags} reads in flight, whose ends go to {@code finished}.
   *
   * @throws PipelineException when io_uring is unavailable ({@code IoUringSyscall} with the errno)
   */
  public IoUringRangeReader(int tags, Finished finished) {
    this(tags, finished, IoUring.EnterCall.SYSCALL, MAX_ENTRY_BYTES);
  }

  /**
   * As {@link #IoUringRangeReader(int, Finished)}, entering the ring through {@code enterCall} and
   * reading at most {@code maxEntryBytes} per entry (tests continue reads without a 1 GiB file).
   */
  IoUringRangeReader(int tags, Finished finished, IoUring.EnterCall enterCall, long maxEntryBytes) {
    if (tags < 1 || tags > MAX_TAGS) {
      throw InputException.of("io_uring range reader", tags + " tags are not 1.." + MAX_TAGS,
          "ask for 1 to " + MAX_TAGS + " reads in flight");
    }
    // An entry per tag: each tag has at most one entry queued, so queueing never finds the ring full.
    this.ring = new IoUring(tags, enterCall);
    this.finished = finished;
    this.maxEntryBytes = maxEntryBytes;
    fd = new int[tags];
    address = new long[tags];
    length = new long[tags];
    fileOffset = new long[tags];
    done = new long[tags];
    busy = new boolean[tags];
  }

  public int tags() {
    return busy.length;
  }

  /** Reads queued or running, not yet handed to {@link Finished}. */
  public int inFlight() {
    return inFlight;
  }

  /**
   * Queues a read of {@code bytes} bytes at {@code fileOffset} of descriptor {@code fd} into the
   * start of {@code destination}, as {@code tag}; {@link #submit} starts it. The destination must
   * stay allocated until the read has ended.
   *
   * @throws PipelineException nothing queued: {@code Busy} when the tag is in flight,
   *     {@code InvalidArgument} when the destination is not native memory of at least {@code bytes}
   *     or the offset is negative, {@code QueueFull} when the submission ring is full
   */
  public void read(int tag, int fd, long fileOffset, MemorySegment destination, long bytes) {
    ensureOpen();
    if (busy[tag]) {
      throw PipelineException.busy("io_uring read", "tag " + tag + " is still in flight",
          "wait until Finished reports it before reading with the tag again");
    }
    if (!destination.isNative() || bytes < 0 || bytes > destination.byteSize()) {
      throw PipelineException.invalidArgument("io_uring read", bytes + " bytes do not fit " + destination,
          "read into native memory of at least the bytes asked for");
    }
    if (fileOffset < 0) {
      throw PipelineException.invalidArgument("io_uring read", "file offset " + Long.toUnsignedString(fileOffset)
          + " is past any file", "read at an offset below 2^63");
    }
    this.fd[tag] = fd;
    address[tag] = destination.address();
    length[tag] = bytes;
    this.fileOffset[tag] = fileOffset;
    done[tag] = 0;
    if (!queueRest(tag)) {
      throw PipelineException.queueFull("submission", "the io_uring submission ring is full",
          "give the reader a tag per read in flight");
    }
    busy[tag] = true;
    inFlight++;
  }

  /**
   * Hands every read queued since the last call to the kernel, in one io_uring_enter that does not
   * wait. When the kernel refuses it (io_uring_enter's errno, after the retries {@link IoUring}
   * makes on EBUSY and EAGAIN), it took none of them: each ends failed with the reason, and none
   * is submitted later.
   */
  public void submit() {
    if (ring.unsubmitted() == 0) {
      return;
    }
    try {
      ring.enter(0, onCompletion);
    } catch (PipelineException e) {
      withdraw(e);
    }
  }

  /**
   * Ends the reads whose completions have arrived, without a syscall, and queues the rest of any
   * that stopped short, which the next {@link #submit} starts.
   *
   * @return the completions taken, each a read that ended or went on
   */
  public int reap() {
    return ring.drainCompletions(onCompletion);
  }

  /**
   * Waits until every read in flight has ended, each still handed to {@link Finished}, then closes
   * the ring. Reads write into their destinations by address, so none may be running once the
   * caller frees that memory: closing the ring's descriptor alone leaves the kernel to cancel or
   * finish them after close(2) has returned.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    while (inFlight > 0) {
      int reaped = ring.drainCompletions(onCompletion);
      try {
        ring.enter(reaped == 0 ? 1 : 0, onCompletion);
      } catch (PipelineException e) {
        if (ring.unsubmitted() > 0) {
          withdraw(e);
        } else {
          // The kernel would not wait: look again soon. Reads of files end, so this ends.
          CLOSE_POLL.idle();
        }
      }
    }
    closed = true;
    ring.close();
  }

  /** Finishes a read, or continues it after a short or interrupted one. */
  private void onCompletion(long userData, int result) {
    int tag = (int) userData;
    if (result == -Errno.EINTR || result == -Errno.EAGAIN) {
      requeue(tag);
    } else if (result < 0) {
      end(tag, Errno.describe(-result));
    } else {
      done[tag] += result;
      if (result > 0 && done[tag] < length[tag]) {
        requeue(tag);
      } else {
        end(tag, null);
      }
    }
  }

  private void requeue(int tag) {
    if (!queueRest(tag)) {
      end(tag, "the io_uring submission ring was full when the read was continued");
    }
  }

  /** Queues what is left of read {@code tag}, at most {@code maxEntryBytes} of it. */
  private boolean queueRest(int tag) {
    long at = done[tag];
    int bytes = (int) Math.min(length[tag] - at, maxEntryBytes);
    return ring.queueRead(fd[tag], address[tag] + at, bytes, fileOffset[tag] + at, tag);
  }

  private void withdraw(PipelineException e) {
    String failure = "io_uring_enter refused to submit it: " + e.getMessage();
    ring.withdrawUnsubmitted(tag -> end((int) tag, failure));
  }

  private void end(int tag, String failure) {
    busy[tag] = false;
    inFlight--;
    finished.finished(tag, done[tag], failure);
  }

  private void ensureOpen() {
    if (closed) {
      throw PipelineException.backend("the io_uring range reader is closed");
    }
  }
}
