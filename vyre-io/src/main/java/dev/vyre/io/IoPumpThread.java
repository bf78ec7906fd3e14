package dev.vyre.io;

import dev.vyre.io.uring.IoUringRangeReader;
import dev.vyre.runtime.IdleStrategy;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.wire.IoQueueLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * One thread of an {@link IoRequestPump}: it serves IO slots {@code first}, {@code first + stride},
 * ..., the one at index {@code k} of them tagged {@code k} in this thread's ring and bounce
 * buffers. Its loop polls its slots' status words (and its ring's completions), yielding between
 * polls for {@value #YIELD_NANOS} ns after the last request or completion it handled, then parks
 * 10 µs doubling to 100 µs (the pump's class comment says why).
 */
final class IoPumpThread {

  private static final long YIELD_NANOS = 100_000;
  private static final long FIRST_PARK_NANOS = 10_000;
  private static final long LONGEST_PARK_NANOS = 100_000;

  private final IoRequestPump pump;
  private final KernelSession session;
  private final MemorySegment queue;
  private final int first;
  private final int stride;
  /** This thread's reads on the io_uring path; null on the FileChannel path. */
  private final IoUringRangeReader ring;
  /**
   * Per tag on the io_uring path, one on the FileChannel path: a host buffer for reads into a
   * resource without a host view (grown on demand), the slice of it the current read fills (the
   * same again when the size repeats, so the steady state allocates nothing), and that
   * resource, or -1 while the read goes straight into a host view.
   */
  private final MemorySegment[] bounce;
  private final MemorySegment[] staged;
  private final int[] stagedFor;
  /** Between polls: yields (on a small machine the task that asks next needs this core), then parks. */
  private final IdleStrategy idle = IdleStrategy.timedBackoff(0, YIELD_NANOS, FIRST_PARK_NANOS, LONGEST_PARK_NANOS);

  IoPumpThread(IoRequestPump pump, int first, int stride, boolean ioUring) {
    this.pump = pump;
    this.session = pump.session();
    this.queue = pump.queue();
    this.first = first;
    this.stride = stride;
    int slots = (IoQueueLayout.IO_SLOT_COUNT - first + stride - 1) / stride;
    this.ring = ioUring ? new IoUringRangeReader(slots, this::finished) : null;
    int buffers = ioUring ? slots : 1;
    bounce = new MemorySegment[buffers];
    staged = new MemorySegment[buffers];
    stagedFor = new int[buffers];
    Arrays.fill(bounce, MemorySegment.NULL);
    Arrays.fill(staged, MemorySegment.NULL);
  }

  void run() {
    // The yield window runs from the last request or completion handled (a reset), at first from now.
    idle.reset();
    try {
      while (!pump.stopping()) {
        idle.idle(serveAll());
      }
    } catch (RuntimeException e) {
      // The queue went away under the pump (the kernel's memory freed by a failure): nothing left to serve.
      pump.noted("the pump stopped: " + e);
    } finally {
      if (ring != null) {
        // Reads in flight write by address into resources and bounce buffers: they end first.
        ring.close();
      }
    }
  }

  /**
   * Takes the completions that arrived, claims and serves every PUBLISHED request in this
   * thread's slots, submits the reads that started and takes their completions again: a read of
   * cached pages has completed by the time io_uring_enter returns, so its request completes in
   * the same poll. Returns how many completions and requests there were.
   */
  private int serveAll() {
    int count = ring == null ? 0 : ring.reap();
    for (int slot = first; slot < IoQueueLayout.IO_SLOT_COUNT; slot += stride) {
      long status = IoQueueLayout.word(slot, IoQueueLayout.STATUS);
      if (Words.getAcquire(queue, status) != SlotLayout.STATUS_PUBLISHED) {
        continue;
      }
      Words.setRelease(queue, status, SlotLayout.STATUS_CLAIMED);
      serve(slot);
      count++;
    }
    if (ring != null) {
      ring.submit();
      count += ring.reap();
    }
    return count;
  }

  /**
   * Serves one claimed request: completes it now, or starts its read, which completes it when
   * it ends ({@link #finish}).
   */
  private void serve(int slot) {
    int op = field(slot, IoQueueLayout.OP_TYPE);
    if (op == IoQueueLayout.OP_FENCE) {
      complete(slot, null);
      return;
    }
    if (op != IoQueueLayout.OP_READ) {
      complete(slot, "op " + op + " is not READ (1) or FENCE (3)");
      return;
    }
    int source = field(slot, IoQueueLayout.SRC_HANDLE);
    int destination = field(slot, IoQueueLayout.DST_HANDLE);
    long offset = offset(slot);
    long bytes = bytes(slot);
    if (source == 0 && bytes == 0) {
      complete(slot, null);
      return;
    }
    if (source <= 0 || source > pump.sourceCount()) {
      complete(slot, "source " + Integer.toUnsignedString(source) + " is not open (" + pump.sourceCount()
          + " open: IoRequestPump.open gives ids from 1)");
      return;
    }
    if (offset < 0) {
      complete(slot, "offset " + Long.toUnsignedString(offset) + " is past any file");
      return;
    }
    int buffer = ring == null ? 0 : (slot - first) / stride;
    try {
      MemorySegment view = session.resource(destination);
      MemorySegment target;
      if (view != null && view.isNative()) {
        if (bytes > view.byteSize()) {
          complete(slot, bytes + " bytes do not fit resource " + destination + " of " + view.byteSize() + " bytes");
          return;
        }
        target = view;
        stagedFor[buffer] = -1;
      } else {
        target = staging(buffer, bytes);
        stagedFor[buffer] = destination;
      }
      IoRequestPump.Source file = pump.source(source);
      if (ring != null) {
        ring.read(buffer, file.fd(), offset, target, bytes);
      } else {
        finish(slot, buffer, FileReads.readAt(file.channel(), target.asSlice(0, bytes).asByteBuffer(), offset), null);
      }
    } catch (IOException | RuntimeException e) {
      complete(slot, readFailed(slot, e.getMessage()));
    }
  }

  /** Bounce buffer {@code buffer}'s first {@code bytes} bytes. */
  private MemorySegment staging(int buffer, long bytes) {
    if (staged[buffer].byteSize() != bytes) {
      if (bounce[buffer].byteSize() < bytes) {
        bounce[buffer] = Arena.ofAuto().allocate(bytes, 4096);
      }
      staged[buffer] = bounce[buffer].asSlice(0, bytes);
    }
    return staged[buffer];
  }

  /** {@link IoUringRangeReader.Finished}: the read of the slot tagged {@code tag} ended. */
  private void finished(int tag, long bytesRead, String failure) {
    int slot = first + tag * stride;
    try {
      finish(slot, tag, bytesRead, failure);
    } catch (RuntimeException e) {
      // The queue went away under the pump; the ring still waits for its other reads.
      pump.noted("IO slot " + slot + " could not be completed: " + e);
    }
  }

  /**
   * A read ended after {@code bytesRead} bytes, or failed: the bytes staged in bounce buffer
   * {@code buffer} go to their resource, and the request completes.
   */
  private void finish(int slot, int buffer, long bytesRead, String failure) {
    long bytes = bytes(slot);
    String problem = null;
    if (failure != null) {
      problem = readFailed(slot, failure);
    } else if (bytesRead < bytes) {
      problem = "the file ends at byte " + (offset(slot) + bytesRead) + ", before the " + bytes + " bytes asked for at "
          + offset(slot);
    } else if (stagedFor[buffer] >= 0) {
      try {
        session.writeResource(stagedFor[buffer], 0, staged[buffer]);
      } catch (RuntimeException e) {
        problem = readFailed(slot, e.getMessage());
      }
    }
    complete(slot, problem);
  }

  /** Gives a claimed request its verdict: OK when {@code problem} is null, else ERROR, counted with why. */
  private void complete(int slot, String problem) {
    pump.counted(problem == null ? null : "IO slot " + slot + ": " + problem);
    Words.setRelease(queue, IoQueueLayout.word(slot, IoQueueLayout.STATUS),
        problem == null ? IoQueueLayout.STATUS_OK : IoQueueLayout.STATUS_ERROR);
  }

  private String readFailed(int slot, String why) {
    return "reading " + bytes(slot) + " bytes at " + offset(slot) + " of source " + field(slot, IoQueueLayout.SRC_HANDLE)
        + " into resource " + field(slot, IoQueueLayout.DST_HANDLE) + " failed: " + why;
  }

  private long offset(int slot) {
    return Integer.toUnsignedLong(field(slot, IoQueueLayout.OFFSET_HI)) << 32
        | Integer.toUnsignedLong(field(slot, IoQueueLayout.OFFSET_LO));
  }

  private long bytes(int slot) {
    return Integer.toUnsignedLong(field(slot, IoQueueLayout.BYTE_COUNT));
  }

  private int field(int slot, int field) {
    return Words.get(queue, IoQueueLayout.word(slot, field));
  }

  /** Stops this thread's reads (for a pump whose other threads failed to start): waits for those in flight. */
  void close() {
    if (ring != null) {
      ring.close();
    }
  }
}
