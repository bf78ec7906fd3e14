package dev.vyre.runtime.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The retire step over one partition in heap memory, the test playing the publishers and the
 * kernel: chunks verified ahead of the turn holder are counted without their statuses being read,
 * exactly once, and only chunks that need nothing but counting are ever verified. (The whole host
 * against a scripted kernel is {@code dev.vyre.runtime.RetireAheadHostTest}.)
 */
class RetireStepTest {

  private static final int CHUNK = VerifiedChunks.TICKETS;
  private static final int LEVEL = 2;

  private final MemorySegment control = MemorySegment.ofArray(new long[ControlLayout.CONTROL_MIN_WORDS / 2]);

  /** A ring of {@code slots} slots holding one partition, and its retire step. */
  private record Ring(RingPartition part, MemorySegment slots, RetireStep retire) {}

  private Ring ring(int slots) {
    RingPartition part = new RingPartition(LEVEL, 0, slots);
    MemorySegment memory = MemorySegment.ofArray(new long[(int) (SlotLayout.ringByteLength(slots) / 8)]);
    RingPartition[] partitions = new RingPartition[ControlLayout.PRIORITY_LEVELS];
    for (int level = 0; level < partitions.length; level++) {
      partitions[level] = level == LEVEL ? part : new RingPartition(level, slots, 0);
    }
    return new Ring(part, memory, new RetireStep(partitions, slots, new KernelViews(control, memory, MemorySegment.ofArray(new long[0]))));
  }

  /** Takes and writes {@code count} tickets (PUBLISHED) without committing them; returns the first. */
  private static long write(Ring ring, int count) {
    long first = ring.part.tryReserve(count);
    assertTrue(first >= 0, "room for " + count);
    for (long ticket = first; ticket < first + count; ticket++) {
      setStatus(ring, ticket, SlotLayout.STATUS_PUBLISHED);
    }
    return first;
  }

  private long publish(Ring ring, int count) {
    long first = write(ring, count);
    ring.part.commit(control, first, count);
    return first;
  }

  private static void setStatus(Ring ring, long ticket, int status) {
    Words.setRelease(ring.slots, SlotLayout.statusWord(ring.part.slotOf(ticket)), status);
  }

  /** The kernel finishes tickets {@code [from, to)} with {@code status}. */
  private static void finish(Ring ring, long from, long to, int status) {
    for (long ticket = from; ticket < to; ticket++) {
      setStatus(ring, ticket, status);
    }
  }

  /** Verifies ahead until nothing is left to verify; returns how many chunks it verified. */
  private static int verifyAll(Ring ring) {
    int chunks = 0;
    while (ring.retire.verifyAhead(ring.part)) {
      chunks++;
    }
    return chunks;
  }

  @Test
  void aVerifiedChunkIsCountedWithoutItsStatusesBeingRead() {
    Ring ring = ring(4 * CHUNK);
    publish(ring, 4 * CHUNK);
    finish(ring, 0, 2 * CHUNK, SlotLayout.STATUS_DONE);
    assertEquals(2, verifyAll(ring), "the two finished chunks, and not the two the kernel has not run");
    // Were the turn holder to read chunk 1 it would stop there: proof that it counts it unread.
    finish(ring, CHUNK, 2 * CHUNK, SlotLayout.STATUS_PUBLISHED);
    finish(ring, 2 * CHUNK, 4 * CHUNK, SlotLayout.STATUS_DONE);

    assertEquals(4 * CHUNK, ring.retire.retire(false));
    assertEquals(4 * CHUNK, ring.part.retired.getVolatile());
    assertEquals(4 * CHUNK, ring.retire.done());
    assertEquals(2 * CHUNK, ring.retire.verifiedAhead(), "the holder read the last two chunks itself");
    assertEquals(0, ring.retire.faults());
    assertEquals(0, ring.retire.waitIo());
    assertFalse(ring.retire.verifyAhead(ring.part), "nothing left to verify once retired");
  }

  @Test
  void chunksThatNeedMoreThanCountingAreNeverVerified() {
    Ring ring = ring(8 * CHUNK);
    long first = write(ring, 8 * CHUNK);
    CompletableFuture<TaskResult> future = new CompletableFuture<>();
    ring.retire.expectFuture(ring.part.slotOf(2 * CHUNK + 5), future);
    ring.retire.expectTenantCount(ring.part.slotOf(3 * CHUNK + 255));
    ring.retire.expectExpressCopy(ring.part.slotOf(4 * CHUNK));
    ring.part.commit(control, first, 8 * CHUNK);
    finish(ring, 0, 8 * CHUNK, SlotLayout.STATUS_DONE);
    setStatus(ring, 7, SlotLayout.STATUS_FAULT);
    setStatus(ring, 2 * CHUNK - 1, SlotLayout.STATUS_WAIT_IO);

    assertEquals(3, verifyAll(ring), "chunks 5, 6 and 7 only");
    assertEquals(8 * CHUNK, ring.retire.retire(false));
    assertEquals(8 * CHUNK - 2, ring.retire.done());
    assertEquals(1, ring.retire.faults());
    assertEquals(1, ring.retire.waitIo());
    assertEquals(3 * CHUNK, ring.retire.verifiedAhead());
    assertEquals(1, ring.retire.tenantRetired(0), "the tenant count of chunk 3 was taken");
    TaskResult result = future.join();
    assertEquals(ring.part.ticketOf(2 * CHUNK + 5), result.ticket());
    assertEquals(SlotStatus.DONE, result.status());
    assertFalse(ring.retire.futuresPending());
  }

  @Test
  void aChunkNotFinishedYetIsVerifiedOnceItIs() {
    Ring ring = ring(2 * CHUNK);
    publish(ring, 2 * CHUNK);
    finish(ring, 0, 2 * CHUNK, SlotLayout.STATUS_DONE);
    setStatus(ring, 100, SlotLayout.STATUS_CLAIMED);
    assertFalse(ring.retire.verifyAhead(ring.part), "ticket 100 is still running");
    setStatus(ring, 100, SlotLayout.STATUS_DONE);
    assertEquals(2, verifyAll(ring), "chunk 0 was given back, then verified with chunk 1");

    assertEquals(2 * CHUNK, ring.retire.retire(false));
    assertEquals(2 * CHUNK, ring.retire.verifiedAhead());
  }

  @Test
  void nothingAtOrAboveCommittedIsVerifiedThoughItsSlotsHoldTheLastLapsDone() {
    Ring ring = ring(2 * CHUNK);
    publish(ring, 2 * CHUNK);
    finish(ring, 0, 2 * CHUNK, SlotLayout.STATUS_DONE);
    assertEquals(2 * CHUNK, ring.retire.retire(false));

    // The next lap's tickets are taken but neither written nor committed: their slots still read DONE.
    long next = ring.part.tryReserve(2 * CHUNK);
    assertEquals(0, verifyAll(ring));
    finish(ring, next, next + 2 * CHUNK, SlotLayout.STATUS_PUBLISHED);
    ring.part.commit(control, next, 2 * CHUNK);
    assertEquals(0, verifyAll(ring), "committed, but the kernel has not run them");
    assertEquals(0, ring.retire.retire(false));
  }

  @Test
  void anEntryLeftFromAnEarlierLapNeverMatches() {
    Ring ring = ring(2 * CHUNK);
    for (int lap = 0; lap < 6; lap++) {
      long first = publish(ring, 2 * CHUNK);
      finish(ring, first, first + 2 * CHUNK, SlotLayout.STATUS_DONE);
      if (lap < 3) {
        assertEquals(2, verifyAll(ring));
      }
      assertEquals(2 * CHUNK, ring.retire.retire(false));
    }
    assertEquals(6 * CHUNK, ring.retire.verifiedAhead(), "the first three laps were verified ahead");

    // Every entry now holds a ticket of an earlier lap; were one taken for this lap, the holder would
    // skip tickets the kernel has not run.
    long first = publish(ring, 2 * CHUNK);
    assertEquals(0, ring.retire.retire(false));
    finish(ring, first, first + CHUNK, SlotLayout.STATUS_DONE);
    assertEquals(CHUNK, ring.retire.retire(false));
    assertEquals(first + CHUNK, ring.part.retired.getVolatile());
    assertEquals(6 * CHUNK, ring.retire.verifiedAhead());
    assertEquals(13 * CHUNK, ring.retire.done());
  }

  @Test
  void theHolderSkipsAVerifiedChunkOnlyFromItsFirstTicket() {
    Ring ring = ring(4 * CHUNK);
    publish(ring, 4 * CHUNK);
    finish(ring, 0, 4 * CHUNK, SlotLayout.STATUS_DONE);
    setStatus(ring, 3, SlotLayout.STATUS_FAULT);
    assertEquals(3, verifyAll(ring));
    // A single FAULT puts the holder off the blocks' stride; it must still land on chunk 1's start.
    assertEquals(4 * CHUNK, ring.retire.retire(false));
    assertEquals(3 * CHUNK, ring.retire.verifiedAhead());
    assertEquals(1, ring.retire.faults());
  }

  @Test
  void aPartitionThatIsNotAWholeNumberOfChunksVerifiesOnlyChunksThatDoNotWrap() {
    int length = 3 * CHUNK + 100;
    Ring ring = ring(length);
    long total = 0;
    for (int lap = 0; lap < 5; lap++) {
      long first = publish(ring, length);
      finish(ring, first, first + length, SlotLayout.STATUS_DONE);
      verifyAll(ring);
      assertEquals(length, ring.retire.retire(false));
      total += length;
    }
    assertEquals(total, ring.retire.done());
    assertTrue(ring.retire.verifiedAhead() > 0 && ring.retire.verifiedAhead() % CHUNK == 0, "whole chunks only");
  }
}
