package dev.vyre.runtime;

import dev.vyre.driver.error.KernelException;
import dev.vyre.runtime.ring.KernelViews;
import dev.vyre.runtime.ring.RetireStep;
import dev.vyre.runtime.ring.RingPartition;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * A kernel's retire thread: it runs retire passes while nobody awaits, stands aside while threads
 * await (each waiter retires for itself), parks when nothing is in flight, fails work the kernel
 * left behind when it exited, and runs the {@link Watchdog}.
 *
 * <p>Standing aside matters: racing waiters for every ticket passes the partition's cache lines
 * between two cores on every round trip (IdleStrategy has the cost), and waking into the gap
 * between two awaits (a publish) costs that round trip more. So it stays aside while a thread
 * awaits and until a whole {@link #STAND_ASIDE_NANOS} has passed without a new await, unless the
 * last waiter out hands back other threads' futures.
 */
final class RetireThread {

  /** How long it sleeps while threads await (it wakes sooner when one hands work back). */
  private static final long STAND_ASIDE_NANOS = 1_000_000;
  private static final IdleStrategy STAND_ASIDE = IdleStrategy.sleeping(STAND_ASIDE_NANOS);
  /** How long it sleeps while nothing is in flight, or after the kernel exited: until the watchdog's next check. */
  private static final IdleStrategy UNTIL_CHECK = IdleStrategy.sleeping(Watchdog.CHECK_EVERY_NANOS);
  /** Idle rounds after which, with nothing in flight, it sleeps {@link #UNTIL_CHECK} at a time. */
  private static final int IDLE_ROUNDS_BEFORE_SLEEP = 1000;
  /** {@link #waiters}: one thread inside an await (low 16 bits), one await begun (the bits above). */
  private static final int WAITER = 1;
  private static final int AWAIT_BEGUN = 1 << 16;
  private static final VarHandle WAITERS;

  static {
    try {
      WAITERS = MethodHandles.lookup().findVarHandle(RetireThread.class, "waiters", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final KernelLifecycle kernel;
  private final KernelInspection inspection;
  private final KernelViews views;
  private final RetireStep retire;
  private final long stallTimeoutNanos;
  /** Its wait between passes that found nothing, while it does not stand aside; this thread's own. */
  private final IdleStrategy.Backoff backoff = RingPartition.cursorWait();
  private final Thread thread;
  private volatile boolean parked;
  /** Threads inside an await (low 16 bits) and awaits begun (the bits above, wrapping). */
  private volatile int waiters;
  /** The last waiter out left tickets behind (other threads' futures): this thread takes over. */
  private volatile boolean handedBack;

  RetireThread(KernelLifecycle kernel, KernelInspection inspection, KernelViews views, RetireStep retire, long stallTimeoutNanos) {
    this.kernel = kernel;
    this.inspection = inspection;
    this.views = views;
    this.retire = retire;
    this.stallTimeoutNanos = stallTimeoutNanos;
    this.thread = Thread.ofPlatform().daemon().name("vyre-retire-" + kernel.backendName()).unstarted(this::run);
  }

  /**
   * Starts the thread, once the kernel's other parts are built: its loop uses them, and a kernel
   * whose construction failed has no thread left behind.
   */
  void start() {
    thread.start();
  }

  /** A thread begins to await a ticket (and retires for itself meanwhile). */
  void awaitBegun() {
    WAITERS.getAndAdd(this, AWAIT_BEGUN + WAITER);
  }

  /** A thread stopped awaiting; the last one out hands other threads' futures back to this thread. */
  void awaitEnded() {
    if ((((int) WAITERS.getAndAdd(this, -WAITER)) & (AWAIT_BEGUN - 1)) == WAITER && retire.futuresPending()) {
      handedBack = true;
      wakeIfParked();
    }
  }

  /** Wakes the thread if it parks; callers set what they signal first (see {@link #park}). */
  void wakeIfParked() {
    if (parked) {
      LockSupport.unpark(thread);
    }
  }

  boolean isCurrentThread() {
    return Thread.currentThread() == thread;
  }

  /** Wakes the thread (the kernel is closed, so it finishes) and waits up to {@code timeout} plus a second for it to end. */
  void join(Duration timeout) {
    LockSupport.unpark(thread);
    try {
      thread.join(timeout.toMillis() + 1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    try {
      retireUntilClosed();
    } catch (IllegalStateException e) {
      // A shutdown that gave up waiting for this thread ended the views under it: its work is over.
      views.afterSwap(e);
    }
  }

  private void retireUntilClosed() {
    int awaitsSeen = 0;
    Watchdog watchdog = new Watchdog(stallTimeoutNanos, inspection.finishedTotal(), inspection.faultTotal(), System.nanoTime());
    while (!kernel.isClosed() || retire.backlog()) {
      // While threads await (or did within the last stand-aside), they retire for themselves.
      int waiting = waiters;
      boolean standAside = !kernel.isClosed() && !handedBack
          && ((waiting & (AWAIT_BEGUN - 1)) != 0 || waiting >>> 16 != awaitsSeen);
      awaitsSeen = waiting >>> 16;
      if (!standAside) {
        handedBack = false;
        if (retire.retire(false) > 0) {
          backoff.reset();
          continue;
        }
      }
      if (kernel.isClosed()) {
        break;
      }
      if (!kernel.isKernelRunning() && retire.backlog()) {
        // The kernel exited with work in flight: nothing will finish it. A backend that reports a
        // fault fails the kernel with it; otherwise (a SHUTDOWN opcode or word) it stored every
        // status before it exited, and the pass above may have looked before the last ones
        // landed, so one more pass retires what did run; the rest fails.
        if (!kernel.healthy()) {
          return;
        }
        retire.retire(true);
        retire.failAll(KernelException.closed(kernel.backendName()));
        park(UNTIL_CHECK, false);
        continue;
      }
      if (!watch(watchdog, System.nanoTime())) {
        return;
      }
      // Every round counts in the backoff, the ones it sleeps in its own way too: after standing
      // aside for long it parks at once rather than spin again.
      if (standAside) {
        park(STAND_ASIDE, false);
        backoff.skipRound();
      } else if (!retire.backlog() && backoff.rounds() > IDLE_ROUNDS_BEFORE_SLEEP) {
        park(UNTIL_CHECK, true);
        backoff.skipRound();
      } else {
        backoff.idle();
      }
    }
  }

  /** Runs the watchdog's checks when due; false when they failed the kernel (this thread then ends). */
  private boolean watch(Watchdog watchdog, long now) {
    if (!watchdog.due(now)) {
      return true;
    }
    if (!kernel.healthy()) {
      return false;
    }
    long inFlight = inspection.inFlightCount();
    if (watchdog.stalled(now, inspection.finishedTotal(), inspection.faultTotal(), inFlight) && kernel.isKernelRunning()) {
      kernel.fail(KernelException.stalled(kernel.backendName(), watchdog.quietMillis(now), inFlight, inspection.summary()));
      return false;
    }
    return true;
  }

  /**
   * Parks once, as {@code sleep} does; publishers with futures, batch publishers and the last waiter
   * out wake it. Each of them sets what it signals before it looks at {@link #parked}, and this
   * looks again after setting it (volatile on both sides, so one of the two sees the other), so no
   * wake-up is lost. {@code whileIdle}: only while no ticket is in flight.
   */
  private void park(IdleStrategy sleep, boolean whileIdle) {
    parked = true;
    if (!kernel.isClosed() && !handedBack && !(whileIdle && retire.backlog())) {
      sleep.idle();
    }
    parked = false;
  }
}
