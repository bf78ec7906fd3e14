package dev.vyre.runtime.ring;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.IdleStrategy;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One priority level's share of the ring, used as a circular queue of tickets (docs/PROTOCOL.md):
 * publishers take consecutive tickets, write their slots and mark them written; the level's
 * doorbell moves over written tickets in order, and the retire step moves {@link #retired} past
 * finished ones, freeing their slots. Ticket {@code t} lives in slot {@code start + t mod length}.
 *
 * <p>Its three cursors ({@link #next}, {@link #committed}, {@link #retired}) are {@link Sequence}s,
 * each on cache lines of its own: publishers CAS the first two and the retire step stores the
 * third, and none of them should pull the others, or this partition's layout fields, along.
 *
 * <p>Internal: public for {@code dev.vyre.runtime} (and the JMH benchmarks, on the class path);
 * this package is not exported.
 */
public final class RingPartition {

  /** Low bits of a public ticket that name its level; the sequence number is above them. */
  public static final int TICKET_LEVEL_BITS = 3;

  public final int level;
  public final int start;
  public final int length;
  private static final VarHandle RUN_END = MethodHandles.arrayElementVarHandle(long[].class);

  /** Set in {@link #next} by {@link #close}: every reservation after looks too large to fit. */
  private static final long CLOSED = 1L << 62;

  /** The next ticket to take, with {@link #CLOSED} once the partition refuses reservations. */
  private final Sequence next = new Sequence();
  /**
   * Per slot, the end of the run of tickets written starting there (0: none yet). Only the entry at
   * {@link #committed} is read, and an entry left from an earlier lap ends at or before it.
   */
  private final long[] runEnd;
  /**
   * Tickets below this are visible to the kernel (the doorbell's value, unwrapped). Volatile reads
   * and a CAS: see {@link #commit} for the race that needs them, and the retire thread's park for
   * the other (a publisher moves this, then looks whether the thread parks; the thread marks itself
   * parked, then looks at this).
   */
  public final Sequence committed = new Sequence();
  /**
   * Tickets below this have finished and been seen by the host; their slots may be reused. Only the
   * retire turn's holder stores it, after reading those tickets' statuses: a publisher that reads
   * it past a slot's ticket writes that slot next, and a waiter that reads it past its own reads the
   * outcome: the store must not become visible before those reads (a volatile store and loads).
   */
  public final Sequence retired = new Sequence();

  public RingPartition(int level, int start, int length) {
    this.level = level;
    this.start = start;
    this.length = length;
    this.runEnd = new long[Math.max(length, 1)];
  }

  /**
   * The six partition offsets of control words 129..134: vyre's default split when none are
   * requested, else the requested ones (-1 meaning "the slot count") after validation.
   */
  public static int[] offsets(int[] requested, int slots) {
    if (requested == null) {
      return ControlLayout.defaultPriorityOffsets(slots);
    }
    int[] offsets = requested.clone();
    if (offsets.length != ControlLayout.PRIORITY_OFFSETS_SLOTS) {
      throw PipelineException.invalidArgument("submission", "priority offsets need 6 words, got " + offsets.length,
          "pass start offsets for the 5 levels plus the total");
    }
    for (int p = 1; p < offsets.length; p++) {
      if (offsets[p] == -1) {
        offsets[p] = slots;
      }
      if (offsets[p] < offsets[p - 1]) {
        throw PipelineException.invalidArgument("submission", "priority offsets must not decrease", "pass non-decreasing offsets");
      }
    }
    if (offsets[0] != 0 || offsets[offsets.length - 1] != slots) {
      throw PipelineException.invalidArgument("submission", "priority offsets must start at 0 and end at the slot count " + slots,
          "pass offsets from 0 to " + slots);
    }
    return offsets;
  }

  /**
   * How a host thread waits for partitions' cursors to move (room for a publish, the retire turn, a
   * drain, publishers to commit): 128 spins, 128 yields, then parks of 50 µs doubling to 500 µs, so
   * that a waiter does not burn a core for long. A new one per wait (it counts its idles).
   */
  public static IdleStrategy.Backoff cursorWait() {
    return IdleStrategy.backoff(128, 128, 50_000, 500_000);
  }

  public int slotOf(long sequence) {
    return start + (int) (sequence % length);
  }

  /** Tickets taken so far. */
  public long taken() {
    return next.getVolatile() & ~CLOSED;
  }

  /**
   * Refuses every reservation from now on (shutdown). Publishers that took tickets before still
   * write and commit them; {@link #allCommitted} says when they have.
   */
  public void close() {
    long value;
    do {
      value = next.getVolatile();
    } while (!next.compareAndSet(value, value | CLOSED));
  }

  /**
   * Whether every ticket taken has been committed and rung: no publisher stores to its slots or to
   * the doorbell ({@code control}'s word) once this holds. The doorbell is the word to read: a
   * publisher moves {@link #committed} first and rings after, so a shutdown that looked at {@code
   * committed} alone could store SHUTDOWN, and free the memory, before that store. (A publisher that
   * another one rang past may still read the doorbell once more, finding nothing to store.)
   */
  public boolean allCommitted(MemorySegment control) {
    // The doorbell never passes `committed`, which never passes `taken`.
    return Words.getAcquire(control, ControlLayout.publishSeqWord(level)) == (int) taken();
  }

  /** Takes {@code count} consecutive tickets if the ring has room for them now; -1 if it has not or is closed. */
  public long tryReserve(int count) {
    while (true) {
      long sequence = next.getVolatile();
      if (sequence + count - retired.getVolatile() > length) {
        return -1;
      }
      if (next.compareAndSet(sequence, sequence + count)) {
        return sequence;
      }
    }
  }

  /**
   * Makes tickets {@code [first, first + count)} visible to the kernel once every earlier ticket
   * is: marks the run as written, then moves the doorbell over every written run that follows it.
   * A publisher never waits for the ones ahead of it: whichever marks last moves the doorbell over
   * all of them (as the LMAX Disruptor's multi-producer sequencer does), so one descheduled
   * publisher delays the doorbell but no other publisher's thread.
   */
  public void commit(MemorySegment control, long first, int count) {
    // Volatile on both sides (mark then read the doorbell; move the doorbell then read the mark),
    // so that of two publishers racing here at least one sees the other's run.
    RUN_END.setVolatile(runEnd, (int) (first % length), first + count);
    advance(control);
  }

  /** Moves {@link #committed} and the doorbell over each written run at the doorbell. */
  private void advance(MemorySegment control) {
    while (true) {
      long from = committed.getVolatile();
      // A run that starts here in an earlier lap ended at or before `from`: not written yet.
      long end = (long) RUN_END.getVolatile(runEnd, (int) (from % length));
      if (end <= from) {
        return;
      }
      if (committed.compareAndSet(from, end)) {
        raiseDoorbell(control, end);
      }
    }
  }

  /**
   * The doorbell only grows, even when two publishers who moved {@link #committed} one after the
   * other store in the opposite order. The slot stores happen-before this store; the kernel reads
   * no slot at or above the doorbell.
   */
  private void raiseDoorbell(MemorySegment control, long end) {
    long word = ControlLayout.publishSeqWord(level);
    while (true) {
      int bell = Words.getAcquire(control, word);
      if ((int) end - bell <= 0 || Words.compareAndSet(control, word, bell, (int) end)) {
        return;
      }
    }
  }

  /** The public ticket of sequence number {@code sequence} in this level. */
  public long ticketOf(long sequence) {
    return sequence << TICKET_LEVEL_BITS | level;
  }

  public static int levelOf(long ticket) {
    return (int) (ticket & ((1 << TICKET_LEVEL_BITS) - 1));
  }

  public static long sequenceOf(long ticket) {
    return ticket >>> TICKET_LEVEL_BITS;
  }
}
