package dev.vyre.runtime;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One priority level's share of the ring, used as a circular queue of tickets (docs/PROTOCOL.md):
 * publishers take consecutive tickets, commit them in ticket order by advancing the level's
 * doorbell, and the retire step moves {@link #retired} past finished ones, freeing their slots.
 * Ticket {@code t} lives in slot {@code start + t mod length}.
 */
final class RingPartition {

  /** Low bits of a public ticket that name its level; the sequence number is above them. */
  static final int TICKET_LEVEL_BITS = 3;

  final int level;
  final int start;
  final int length;
  private final AtomicLong next = new AtomicLong();
  /** Tickets below this are visible to the kernel (the doorbell's value, unwrapped). */
  volatile long committed;
  /** Tickets below this have finished and been seen by the host; their slots may be reused. */
  volatile long retired;

  RingPartition(int level, int start, int length) {
    this.level = level;
    this.start = start;
    this.length = length;
  }

  /**
   * The six partition offsets of control words 129..134: vyre's default split when none are
   * requested, else the requested ones (-1 meaning "the slot count") after validation.
   */
  static int[] offsets(int[] requested, int slots) {
    if (requested == null) {
      return ControlLayout.defaultPriorityOffsets(slots);
    }
    int[] offsets = requested.clone();
    if (offsets.length != ControlLayout.PRIORITY_OFFSETS_SLOTS) {
      throw PipelineException.queueFull("submission", "priority offsets need 6 words, got " + offsets.length,
          "pass start offsets for the 5 levels plus the total");
    }
    for (int p = 1; p < offsets.length; p++) {
      if (offsets[p] == -1) {
        offsets[p] = slots;
      }
      if (offsets[p] < offsets[p - 1]) {
        throw PipelineException.queueFull("submission", "priority offsets must not decrease", "pass non-decreasing offsets");
      }
    }
    if (offsets[0] != 0 || offsets[offsets.length - 1] != slots) {
      throw PipelineException.queueFull("submission", "priority offsets must start at 0 and end at the slot count " + slots,
          "pass offsets from 0 to " + slots);
    }
    return offsets;
  }

  int slotOf(long sequence) {
    return start + (int) (sequence % length);
  }

  /** Tickets taken so far. */
  long taken() {
    return next.get();
  }

  /** Takes {@code count} consecutive tickets if the ring has room for them now; -1 if it has not. */
  long tryReserve(int count) {
    while (true) {
      long sequence = next.get();
      if (sequence + count - retired > length) {
        return -1;
      }
      if (next.compareAndSet(sequence, sequence + count)) {
        return sequence;
      }
    }
  }

  /**
   * Makes tickets {@code [first, first + count)} visible to the kernel, after every earlier ticket:
   * waits for the publishers ahead, then stores the doorbell with release semantics.
   */
  void commit(MemorySegment control, long first, int count) {
    int waits = 0;
    while (committed != first) {
      Backoff.pauseBriefly(waits++);
    }
    // The slot stores happen-before this release store; the kernel acquires the doorbell before
    // it reads any slot below it.
    Words.setRelease(control, ControlLayout.publishSeqWord(level), (int) (first + count));
    committed = first + count;
  }

  /** The public ticket of sequence number {@code sequence} in this level. */
  long ticketOf(long sequence) {
    return sequence << TICKET_LEVEL_BITS | level;
  }

  static int levelOf(long ticket) {
    return (int) (ticket & ((1 << TICKET_LEVEL_BITS) - 1));
  }

  static long sequenceOf(long ticket) {
    return ticket >>> TICKET_LEVEL_BITS;
  }
}
