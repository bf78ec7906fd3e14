package dev.vyre.runtime.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * Publishers racing to commit runs of tickets, each waiting for its own as an awaiting publisher
 * does: the doorbell covers every run, in order, promptly, and never goes back.
 */
class RingPartitionTest {

  private static final int LEVEL = 2;
  private static final int PUBLISHERS = 4;
  private static final int RUNS_EACH = 20_000;

  @Test
  void theRunAtTheDoorbellMovesItOverRunsCommittedAheadOfIt() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment control = arena.allocate(4L * ControlLayout.CONTROL_MIN_WORDS, 64);
      RingPartition part = new RingPartition(LEVEL, 0, 8);
      long a = part.tryReserve(1);
      long b = part.tryReserve(2);
      part.commit(control, b, 2);
      assertEquals(0, part.committed.getVolatile(), "the run behind an uncommitted one waits");
      assertEquals(0, Words.getAcquire(control, ControlLayout.publishSeqWord(LEVEL)));
      part.commit(control, a, 1);
      assertEquals(3, part.committed.getVolatile(), "the doorbell moved over the run at it and the one ahead");
      assertEquals(3, Words.getAcquire(control, ControlLayout.publishSeqWord(LEVEL)));
    }
  }

  @RepeatedTest(5)
  void racingPublishersCommitEveryRunAndTheDoorbellOnlyGrows() throws InterruptedException {
    try (Arena arena = Arena.ofShared()) {
      MemorySegment control = arena.allocate(4L * ControlLayout.CONTROL_MIN_WORDS, 64);
      RingPartition part = new RingPartition(LEVEL, 0, 1 << 20);
      AtomicBoolean wentBack = new AtomicBoolean();
      AtomicBoolean done = new AtomicBoolean();
      AtomicBoolean stalled = new AtomicBoolean();
      Thread watcher = Thread.ofPlatform().start(() -> {
        int last = 0;
        while (!done.get()) {
          int bell = Words.getAcquire(control, ControlLayout.publishSeqWord(LEVEL));
          if (bell - last < 0) {
            wentBack.set(true);
          }
          last = bell;
        }
      });
      CountDownLatch start = new CountDownLatch(1);
      Thread[] publishers = new Thread[PUBLISHERS];
      for (int p = 0; p < PUBLISHERS; p++) {
        int count = 1 + p;  // runs of different lengths
        publishers[p] = Thread.ofPlatform().start(() -> {
          try {
            start.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          for (int i = 0; i < RUNS_EACH; i++) {
            long first = part.tryReserve(count);
            assertTrue(first >= 0, "the partition is larger than every ticket of the test");
            part.commit(control, first, count);
            // As a publisher that awaits its task: a run nobody moved the doorbell over stalls it.
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (part.committed.getVolatile() < first + count) {
              if (System.nanoTime() - deadline > 0) {
                stalled.set(true);
                return;
              }
              Thread.onSpinWait();
            }
          }
        });
      }
      start.countDown();
      for (Thread publisher : publishers) {
        publisher.join();
      }
      done.set(true);
      watcher.join();
      assertTrue(!stalled.get(), "a committed run stayed behind the doorbell");
      long total = (long) RUNS_EACH * PUBLISHERS * (PUBLISHERS + 1) / 2;
      assertEquals(total, part.taken());
      assertEquals(total, part.committed.getVolatile(), "every run committed, none lost between racing publishers");
      assertEquals((int) total, Words.getAcquire(control, ControlLayout.publishSeqWord(LEVEL)));
      assertTrue(!wentBack.get(), "the doorbell never went back");
    }
  }
}
