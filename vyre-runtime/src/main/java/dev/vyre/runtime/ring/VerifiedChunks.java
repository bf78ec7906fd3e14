package dev.vyre.runtime.ring;

import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One partition's chunks of {@link #TICKETS} tickets verified ahead of the thread holding the
 * retire turn, by threads that cannot take it and would otherwise wait (publishers waiting for
 * room): every ticket of a verified chunk finished DONE and needs nothing but counting, so the
 * turn holder counts it without reading a status. Each status read is a cache miss (the GPU wrote
 * the line), so this spreads the reads over the verifiers' cores; everything else (futures,
 * tenant counts, express clears, FAULT and WAIT_IO, the counters, {@code retired}) stays with the
 * turn holder (RetireStep).
 *
 * <p>Why a verified chunk may be counted unread: a slot's status, once final for ticket {@code t},
 * cannot change until a publisher reuses the slot for ticket {@code t + length}, which needs
 * {@code retired > t}, which only the turn holder moves, and it has not moved past a chunk it is
 * about to count. A verifier reads {@code committed} before the statuses, so it never takes the
 * previous lap's DONE for this one: the publisher stored PUBLISHED, and the slot's work bits,
 * before committing.
 *
 * <p>An entry holds the whole first ticket of its chunk (verified) or that ticket's complement
 * (left to the turn holder), never a flag: a ticket is taken once, so an entry left from an
 * earlier lap, or stored late by a verifier that the turn holder has passed, never matches the
 * ticket the holder is at.
 *
 * <p>Verifiers and the turn holder share one claim cursor, so that a chunk is read once: a
 * verifier claims the chunk at the cursor, and the turn holder, about to read a chunk itself,
 * moves the cursor past it, which keeps the verifiers ahead of it rather than behind.
 */
final class VerifiedChunks {

  /** Tickets per chunk; a chunk starts at a multiple of it and lies in contiguous slots. */
  static final int TICKETS = 256;
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final VarHandle WORK_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  /** An entry naming no chunk: neither a ticket nor a ticket's complement. */
  private static final long NONE = Long.MIN_VALUE;

  /** What a verifier found in a chunk. */
  private enum Found { VERIFIED, UNFINISHED, LEFT_TO_HOLDER }

  private final RingPartition part;
  /** RetireStep's work bytes, by slot: non-zero where a ticket needs more than counting. */
  private final byte[] work;
  /** By chunk number masked: its first ticket once verified, that ticket's complement once left to the turn holder. */
  private final long[] entries;
  private final int mask;
  /**
   * The claim cursor: the first ticket of the next chunk to verify. Verifiers CAS it once per
   * chunk, so it is a {@link Sequence}, away from the fields and entries the turn holder reads.
   */
  private final Sequence cursor = new Sequence();

  VerifiedChunks(RingPartition part, byte[] work) {
    this.part = part;
    this.work = work;
    // More entries than chunks fit in the ring, so live chunks never share one.
    this.entries = new long[Integer.highestOneBit(part.length / TICKETS + 1) << 1];
    this.mask = entries.length - 1;
    Arrays.fill(entries, NONE);
  }

  // ---------------------------------------------------------------- verifiers

  /**
   * Verifies one chunk ahead of the turn holder in {@code ring}; returns whether it verified one,
   * false when none can be now. Chunks that need the turn holder are passed over; a chunk not
   * finished yet ends the call and is given back, to be verified later.
   */
  boolean verifyAhead(MemorySegment ring) {
    // `committed` before any status: every ticket below it was written (PUBLISHED, work bits)
    // before it was committed, so no status read below is an earlier lap's.
    long committed = part.committed.getVolatile();
    long first;
    while ((first = claim(part.retired.getVolatile(), committed)) >= 0) {
      switch (check(ring, part.slotOf(first))) {
        case VERIFIED -> {
          // Release: the status reads that found it so come before, for whoever reads the entry.
          LONGS.setRelease(entries, index(first), first);
          return true;
        }
        case UNFINISHED -> {
          // The newest chunks: verified again later rather than left to the turn holder.
          reopen(first);
          return false;
        }
        case LEFT_TO_HOLDER -> LONGS.setRelease(entries, index(first), ~first);
      }
    }
    return false;
  }

  /**
   * Claims the next chunk to verify, at or after {@code retired} and wholly below {@code
   * committed}, and returns its first ticket; -1 when none is left. Skips chunks already decided
   * (after {@link #reopen}) and chunks that wrap around the end of the partition.
   */
  private long claim(long retired, long committed) {
    long lowest = (retired + TICKETS - 1) & -TICKETS;
    while (true) {
      long next = cursor.getVolatile();
      long first = Math.max(next, lowest);
      if (committed - first < TICKETS) {
        return -1;
      }
      if (cursor.compareAndSet(next, first + TICKETS)
          && first % part.length + TICKETS <= part.length && !decided(first)) {
        return first;
      }
    }
  }

  /** Lets the next claim take the chunk from {@code first} again, so that chunks claimed the moment they are committed are not lost for good. */
  private void reopen(long first) {
    long next;
    do {
      next = cursor.getVolatile();
    } while (next > first && !cursor.compareAndSet(next, first));
  }

  /** Whether the chunk from {@code slot} finished DONE and needs nothing but counting, and if not, why. */
  private Found check(MemorySegment ring, int slot) {
    for (int i = 0; i < TICKETS; i += Long.BYTES) {
      if ((long) WORK_LONGS.get(work, slot + i) != 0) {
        // A future, an express copy, a tenant count.
        return Found.LEFT_TO_HOLDER;
      }
    }
    // A block at a time, as the turn holder reads: the loads inside a block are independent, so
    // their cache misses overlap (and the next block's go out while the branch is predicted), and
    // a chunk of the newest tickets costs only the blocks up to its first task still running.
    for (int block = slot; block < slot + TICKETS; block += RetireStep.BLOCK) {
      int differ = 0;
      for (int i = block; i < block + RetireStep.BLOCK; i++) {
        differ |= Words.getAcquire(ring, SlotLayout.statusWord(i)) ^ SlotLayout.STATUS_DONE;
      }
      for (int i = block; differ != 0 && i < block + RetireStep.BLOCK; i++) {
        int status = Words.getAcquire(ring, SlotLayout.statusWord(i));
        if (status != SlotLayout.STATUS_DONE) {
          // A FAULT or a WAIT_IO is the turn holder's to count.
          return SlotStatus.of(status).isFinal() ? Found.LEFT_TO_HOLDER : Found.UNFINISHED;
        }
      }
      // (Where the block differed, the rest finished DONE since the first look.)
    }
    return Found.VERIFIED;
  }

  // ---------------------------------------------------------------- the turn holder

  /**
   * For the turn holder at {@code ticket}, the first of a chunk wholly committed: whether the chunk
   * was verified, so that it counts it unread. When not, the holder reads it itself, having moved
   * the cursor past it; but when a verifier is still at it, the holder first verifies another
   * chunk meanwhile (once: that verifier may have been descheduled) rather than read the same one.
   */
  boolean countUnread(long ticket, MemorySegment ring) {
    long entry = (long) LONGS.getAcquire(entries, index(ticket));
    if (entry == ticket) {
      return true;
    }
    if (entry == ~ticket || take(ticket)) {
      return false;
    }
    verifyAhead(ring);
    return (long) LONGS.getAcquire(entries, index(ticket)) == ticket;
  }

  /** Moves the cursor past the chunk from {@code first} unless a verifier has claimed it; whether it did. */
  private boolean take(long first) {
    if (cursor.getAcquire() > first) {
      return false;
    }
    // A plain store, not a CAS, on the holder's path through every chunk it reads. Racing a claim,
    // it may move the cursor back over a chunk just claimed, which is then verified twice: work
    // wasted, never a count wrong.
    cursor.setRelease(first + TICKETS);
    return true;
  }

  private boolean decided(long first) {
    long entry = (long) LONGS.getAcquire(entries, index(first));
    return entry == first || entry == ~first;
  }

  private int index(long first) {
    return (int) (first / TICKETS) & mask;
  }
}
