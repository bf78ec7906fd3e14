package dev.vyre.runtime;

import dev.vyre.driver.error.KernelException;
import dev.vyre.runtime.ring.KernelViews;
import dev.vyre.runtime.ring.RetireStep;
import dev.vyre.runtime.ring.RingPartition;
import java.time.Duration;

/**
 * Waiting for tasks to finish: {@link #await} one ticket (and every earlier one of its priority),
 * {@link #drain} everything published. A waiter retires for itself while it waits (the retire
 * thread stands aside meanwhile), so no round trip waits for another thread to wake. The LMAX
 * Disruptor's barrier, in those terms. Allocation-free.
 */
final class TaskAwaiter {

  /** How long a waiter spins before it parks between looks: while a round trip is plausible. */
  private static final long SPIN_NANOS = 200_000;
  private static final IdleStrategy SPIN = IdleStrategy.busySpin();
  /** A waiter past its spin: it retires for itself, so it needs no wake-up, only another look soon. */
  private static final IdleStrategy PARK = IdleStrategy.sleeping(20_000);

  private final KernelLifecycle lifecycle;
  private final KernelViews views;
  private final RingPartition[] partitions;
  private final RetireStep retire;
  private final RetireThread retireThread;

  TaskAwaiter(KernelLifecycle lifecycle, KernelViews views, RingPartition[] partitions, RetireStep retire, RetireThread retireThread) {
    this.lifecycle = lifecycle;
    this.views = views;
    this.partitions = partitions;
    this.retire = retire;
    this.retireThread = retireThread;
  }

  /** See {@link Megakernel#await}. */
  boolean await(long ticket, Duration timeout) {
    if (ticket < 0) {
      // An empty batch's "ticket" (-1), or a batchTicket derived from it: nothing was published.
      return true;
    }
    RingPartition part = partitions[RingPartition.levelOf(ticket)];
    long sequence = RingPartition.sequenceOf(ticket);
    if (part.retired.getVolatile() > sequence) {
      return true;
    }
    retireThread.awaitBegun();
    try {
      return awaitRetired(part, sequence, timeout);
    } catch (IllegalStateException e) {
      // Shut down while this waited (a view ended under it): its last retire pass is over, so the
      // ticket has retired or never will.
      views.afterSwap(e);
      KernelException failure = lifecycle.failure();
      if (failure != null) {
        throw failure;
      }
      return part.retired.getVolatile() > sequence;
    } finally {
      retireThread.awaitEnded();
    }
  }

  private boolean awaitRetired(RingPartition part, long sequence, Duration timeout) {
    int slot = part.slotOf(sequence);
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    int spins = 0;
    while (part.retired.getVolatile() <= sequence) {
      KernelException failure = lifecycle.failure();
      if (failure != null) {
        throw failure;
      }
      // Its own status is one load. Once it is final and every earlier ticket is retired, the
      // task is done in order: its retire pass is left to a later one. Otherwise a pass (a CAS and
      // a walk of every partition) right away, which retires what earlier waiters left while the
      // kernel works on this task, and now and then after.
      if (retire.finished(slot)) {
        if (part.retired.getVolatile() == sequence) {
          return true;
        }
        retire.retire(false);
      } else if ((spins++ & 63) == 0) {
        retire.retire(false);
      }
      long now = System.nanoTime();
      if (now - deadline > 0 || (lifecycle.isClosed() && lifecycle.report() != null)) {
        return false;
      }
      // A waiter that retires for itself needs no wake-up: spin while a round trip is plausible.
      if (now - start < SPIN_NANOS) {
        SPIN.idle();
      } else if (!lifecycle.isClosed() && !lifecycle.isKernelRunning()) {
        // (While shutdown runs, its last pass retires what finished and the report ends the wait.)
        return finishedBeforeExit(part, sequence + 1);
      } else {
        PARK.idle();
      }
    }
    return true;
  }

  /**
   * The kernel exited while a caller waited for {@code part}'s tickets below {@code target}. Throws
   * the failure if it failed (asking the backend first: the retire thread may not have yet);
   * otherwise retires what it finished before it exited and says whether that reaches the target.
   */
  private boolean finishedBeforeExit(RingPartition part, long target) {
    if (lifecycle.failure() == null && lifecycle.healthy()) {
      retire.retire(true);
      return part.retired.getVolatile() >= target;
    }
    throw lifecycle.failure();
  }

  /** See {@link Megakernel#drain}. */
  boolean drain(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    IdleStrategy wait = null;
    for (RingPartition part : partitions) {
      long target = part.taken();
      while (part.retired.getVolatile() < target) {
        KernelException failure = lifecycle.failure();
        if (failure != null) {
          throw failure;
        }
        retire.retire(false);
        if (part.retired.getVolatile() >= target) {
          // This level is done; the later ones still count.
          break;
        }
        if (!lifecycle.isKernelRunning()) {
          if (!finishedBeforeExit(part, target)) {
            return false;
          }
        } else if (System.nanoTime() - deadline > 0) {
          return false;
        } else {
          if (wait == null) {
            wait = RingPartition.cursorWait();
          }
          wait.idle();
        }
      }
    }
    return true;
  }
}
