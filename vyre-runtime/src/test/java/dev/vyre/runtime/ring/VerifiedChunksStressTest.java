package dev.vyre.runtime.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.RepeatedTest;

/**
 * The retire step with chunks verified ahead, over several partitions whose starts and lengths
 * are not multiples of a chunk (one shorter than a chunk, one that fits a single chunk at most),
 * with tickets that cross 2^31 and 2^32, and a kernel that finishes the tickets of each batch it
 * claims in a random order: every ticket is retired once, after it finished, counted with its own
 * outcome, and every future and tenant count is taken once.
 */
class VerifiedChunksStressTest {

  private static final int CHUNK = VerifiedChunks.TICKETS;
  /** Partition starts: lengths 301, 845, 200, 0, 395 (none a multiple of 8 or of a chunk). */
  private static final int[] STARTS = {0, 301, 1146, 1346, 1346, 1741};
  private static final int SLOTS = STARTS[STARTS.length - 1];
  /** Tickets per active partition. */
  private static final long TICKETS = 300_000;

  private final MemorySegment control = MemorySegment.ofArray(new long[ControlLayout.CONTROL_MIN_WORDS / 2]);
  /**
   * Tickets verified ahead over the repetitions. Whether a publisher waits while the retire thread
   * holds the turn is up to the scheduler: one repetition in a CI run on 2 busy cores had none, so
   * the path is required of the repetitions together (RetireStepTest drives it deterministically).
   */
  private static final AtomicLong VERIFIED_AHEAD = new AtomicLong();

  @AfterAll
  static void chunksWereVerifiedAhead() {
    assertTrue(VERIFIED_AHEAD.get() > 0, "chunks were verified ahead in some repetition");
  }

  /** How ticket {@code ticket} of {@code level} ends: mostly DONE. */
  private static int outcome(int level, long ticket) {
    long h = (ticket * 0x9E3779B97F4A7C15L) ^ (level * 0xC2B2AE3D27D4EB4FL);
    h ^= h >>> 29;
    h *= 0xBF58476D1CE4E5B9L;
    h ^= h >>> 32;
    int roll = (int) Long.remainderUnsigned(h, 4000);
    return roll == 0 ? SlotLayout.STATUS_FAULT : roll == 1 ? SlotLayout.STATUS_WAIT_IO : SlotLayout.STATUS_DONE;
  }

  @RepeatedTest(3)
  void everyTicketRetiresOnceWithItsOwnOutcome() throws Exception {
    MemorySegment ring = MemorySegment.ofArray(new long[(int) (SlotLayout.ringByteLength(SLOTS) / 8)]);
    RingPartition[] parts = new RingPartition[ControlLayout.PRIORITY_LEVELS];
    // Each level starts at its own ticket near 2^31 or 2^32, not at a chunk start.
    long[] base = {(1L << 31) - 3 * CHUNK - 7, (1L << 32) - 5 * CHUNK - 129, (1L << 32) - 1000, 0, (1L << 31) - 77};
    for (int level = 0; level < parts.length; level++) {
      parts[level] = new RingPartition(level, STARTS[level], STARTS[level + 1] - STARTS[level]);
      startAt(parts[level], base[level]);
    }
    RetireStep retire = new RetireStep(parts, SLOTS, new KernelViews(control, ring, MemorySegment.ofArray(new long[0])));
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    ConcurrentLinkedQueue<Expected> futures = new ConcurrentLinkedQueue<>();
    AtomicLong tenantCounts = new AtomicLong();
    long[] expectFaults = new long[1];
    long[] expectWaitIo = new long[1];
    long expectTotal = 0;
    for (int level = 0; level < parts.length; level++) {
      if (parts[level].length == 0) {
        continue;
      }
      expectTotal += TICKETS;
      for (long t = base[level]; t < base[level] + TICKETS; t++) {
        int o = outcome(level, t);
        expectFaults[0] += o == SlotLayout.STATUS_FAULT ? 1 : 0;
        expectWaitIo[0] += o == SlotLayout.STATUS_WAIT_IO ? 1 : 0;
      }
    }

    List<Thread> threads = new ArrayList<>();
    Thread.UncaughtExceptionHandler onError = (thread, error) -> {
      failed.compareAndSet(null, error);
      stop.set(true);
    };
    // A publisher per partition: waits for room by retiring or verifying ahead, as Megakernel.reserve does.
    for (RingPartition part : parts) {
      if (part.length == 0) {
        continue;
      }
      long seed = part.level;
      threads.add(Thread.ofPlatform().uncaughtExceptionHandler(onError).start(() -> {
        SplittableRandom random = new SplittableRandom(seed);
        long end = base[part.level] + TICKETS;
        while (part.taken() < end && !stop.get()) {
          int count = (int) Math.min(1 + random.nextInt(Math.min(part.length, 300)), end - part.taken());
          long first = part.tryReserve(count);
          if (first < 0) {
            if (retire.retire(false) == 0 && !retire.verifyAhead(part)) {
              Thread.onSpinWait();
            }
            continue;
          }
          for (long t = first; t < first + count; t++) {
            int slot = part.slotOf(t);
            int before = Words.getAcquire(ring, SlotLayout.statusWord(slot));
            if (before != SlotLayout.STATUS_EMPTY && !SlotStatus.of(before).isFinal()) {
              throw new AssertionError("level " + part.level + " ticket " + t + " reuses slot " + slot + " still " + SlotStatus.of(before));
            }
            int roll = random.nextInt(600);
            if (roll == 0) {
              CompletableFuture<TaskResult> future = new CompletableFuture<>();
              retire.expectFuture(slot, future);
              futures.add(new Expected(future, part.ticketOf(t), outcome(part.level, t)));
            } else if (roll == 1) {
              Words.set(ring, SlotLayout.slotBase(slot) + SlotLayout.TENANT_WORD, 3);
              retire.expectTenantCount(slot);
              tenantCounts.incrementAndGet();
            } else if (roll == 2) {
              retire.expectExpressCopy(slot);
            }
            Words.set(ring, SlotLayout.argWord(slot, 0), (int) t);
            Words.setRelease(ring, SlotLayout.statusWord(slot), SlotLayout.STATUS_PUBLISHED);
          }
          part.commit(control, first, count);
        }
      }));
    }
    // The kernel: claims up to 32 committed tickets of each level at a time and finishes them in a random order.
    threads.add(Thread.ofPlatform().uncaughtExceptionHandler(onError).start(() -> {
      SplittableRandom random = new SplittableRandom(42);
      long[] claimed = base.clone();
      int[] order = new int[32];
      while (!stop.get()) {
        boolean any = false;
        for (RingPartition part : parts) {
          long committed = part.committed.getVolatile();
          long from = claimed[part.level];
          int n = (int) Math.min(32, committed - from);
          if (n <= 0) {
            continue;
          }
          any = true;
          for (int i = 0; i < n; i++) {
            order[i] = i;
          }
          for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
          }
          for (int i = 0; i < n; i++) {
            long t = from + order[i];
            int slot = part.slotOf(t);
            if (Words.getAcquire(ring, SlotLayout.statusWord(slot)) != SlotLayout.STATUS_PUBLISHED
                || Words.get(ring, SlotLayout.argWord(slot, 0)) != (int) t) {
              throw new AssertionError("level " + part.level + " ticket " + t + ": slot " + slot + " was overwritten before it ran");
            }
            Words.setRelease(ring, SlotLayout.statusWord(slot), outcome(part.level, t));
          }
          claimed[part.level] = from + n;
        }
        if (!any) {
          Thread.onSpinWait();
        }
      }
    }));
    // The retire thread.
    threads.add(Thread.ofPlatform().uncaughtExceptionHandler(onError).start(() -> {
      while (!stop.get()) {
        if (retire.retire(false) == 0) {
          Thread.onSpinWait();
        }
      }
    }));

    long deadline = System.nanoTime() + 120_000_000_000L;
    while (failed.get() == null && System.nanoTime() < deadline) {
      boolean all = true;
      for (int level = 0; level < parts.length; level++) {
        if (parts[level].length != 0 && parts[level].retired.getVolatile() < base[level] + TICKETS) {
          all = false;
        }
      }
      if (all) {
        break;
      }
      Thread.sleep(5);
    }
    stop.set(true);
    for (Thread thread : threads) {
      thread.join();
    }
    if (failed.get() != null) {
      throw new AssertionError("a thread failed", failed.get());
    }
    for (int level = 0; level < parts.length; level++) {
      assertEquals(base[level] + (parts[level].length == 0 ? 0 : TICKETS), parts[level].retired.getVolatile(), "level " + level + " retired");
    }
    assertEquals(expectFaults[0], retire.faults(), "each FAULT counted once");
    assertEquals(expectWaitIo[0], retire.waitIo(), "each WAIT_IO counted once");
    assertEquals(expectTotal - expectFaults[0] - expectWaitIo[0], retire.done(), "each DONE counted once");
    assertEquals(tenantCounts.get(), retire.tenantRetired(3), "each tenant count taken once");
    VERIFIED_AHEAD.addAndGet(retire.verifiedAhead());
    for (Expected want : futures) {
      assertTrue(want.future.isDone(), "future of ticket " + want.ticket);
      TaskResult result = want.future.join();
      assertEquals(want.ticket, result.ticket());
      assertEquals(SlotStatus.of(want.status), result.status());
    }
    assertTrue(!retire.futuresPending());
  }

  private record Expected(CompletableFuture<TaskResult> future, long ticket, int status) {}

  /** Moves a fresh partition's tickets to start at {@code ticket}, as if that many had retired. */
  private static void startAt(RingPartition part, long ticket) throws ReflectiveOperationException {
    Field next = RingPartition.class.getDeclaredField("next");
    next.setAccessible(true);
    ((Sequence) next.get(part)).setVolatile(ticket);
    part.committed.setVolatile(ticket);
    part.retired.setVolatile(ticket);
  }
}
