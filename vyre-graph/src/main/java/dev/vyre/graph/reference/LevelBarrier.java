package dev.vyre.graph.reference;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The barrier between levels: a counter and a phase; the last worker to arrive runs the action (the
 * next level's decision) alone and then opens the next phase. The others spin, then yield, then
 * sleep briefly: spinning answers fastest when every worker has a core, yielding lets a worker that
 * has no core of its own finish its share, and the short sleeps keep waiters cheap through long
 * waits (a fused phase on one worker, a skewed level).
 */
final class LevelBarrier {

  // Spins with onSpinWait, then yields, then sleeps this long between looks.
  private static final int SPINS = 1 << 9;
  private static final int YIELDS = 1 << 10;
  private static final long SLEEP_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

  private final int parties;
  private final AtomicInteger arrived = new AtomicInteger();
  private volatile int phase;

  LevelBarrier(int parties) {
    this.parties = parties;
  }

  /**
   * Waits for every party. The last to arrive runs {@code last} (when not null) before any party
   * leaves; everything any party wrote before arriving is visible to every party after.
   */
  void await(Runnable last) {
    int p = phase;
    if (arrived.incrementAndGet() == parties) {
      arrived.set(0);
      try {
        if (last != null) {
          last.run();
        }
      } finally {
        phase = p + 1;
      }
      return;
    }
    for (int spins = 0; phase == p; spins++) {
      if (spins < SPINS) {
        Thread.onSpinWait();
      } else if (spins < SPINS + YIELDS) {
        Thread.yield();
      } else {
        LockSupport.parkNanos(this, SLEEP_NANOS);
      }
    }
  }
}
