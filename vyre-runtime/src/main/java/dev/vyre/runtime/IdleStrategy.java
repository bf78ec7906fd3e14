package dev.vyre.runtime;

import java.util.concurrent.locks.LockSupport;

/**
 * How a thread waits when a poll found nothing to do, as Agrona's {@code IdleStrategy}: every
 * polling loop in vyre takes its waiting from one of these. A loop calls {@link #idle(int)} after
 * each poll with how much work the poll did: 0 waits once, more resets the strategy, so that the
 * next idle spell starts from its cheapest wait again.
 *
 * <ul>
 *   <li>{@link #busySpin()}: a spin-wait hint ({@link Thread#onSpinWait()}); reacts within
 *       nanoseconds and holds its core.
 *   <li>{@link #yielding()}: {@link Thread#yield()}; gives the core to a thread that is ready.
 *   <li>{@link #backoff}, {@link #timedBackoff}: spin, then yield, then park for a time that
 *       doubles from a least to a most, each phase bounded by a count of idles or by the clock.
 *   <li>{@link #sleeping(long)}: parks for a fixed time on every idle.
 * </ul>
 *
 * The first two and the last keep no state and may be shared between threads; a {@link Backoff}
 * counts its idles, so it belongs to one thread (a loop's own, or made per wait off the hot path).
 * Parks may end early, on an unpark or an interrupt; callers re-check their condition.
 *
 * <h2>Why vyre waits as it does</h2>
 *
 * The measurements behind the choices of spin, yield and park, from the machines named, all on
 * 2026-11-22 (the "H100 host" is a 16-core VM with one H100; the "dev VM" a 2-core VM;
 * docs/BENCHMARKS.md has the runs). They are the only measured figures in vyre's source comments.
 *
 * <ul>
 *   <li><b>A park costs a wake-up.</b> Unparking a thread is a system call and, on a VM, an
 *       interrupt to another vCPU: a reference worker that parked between one-task round trips
 *       turned each publish into an unpark, 26 µs per publish on the H100 host. Hence a waiter
 *       spins while an answer is plausible (an await 200 µs, a reference worker 200 µs then yields
 *       20 µs), and a plain publish wakes neither the retire thread nor more than one worker.
 *   <li><b>Spin by the clock, not by a count.</b> The length of a spin-wait hint (x86 PAUSE)
 *       varies about 10x between CPU generations, so the reference workers and the awaits bound
 *       their spinning in nanoseconds ({@link #timedBackoff}).
 *   <li><b>Few spinners.</b> With all 15 idle reference workers spinning on the H100 host, they
 *       raced for every task and for the cores the host's threads needed: a one-task round trip
 *       took 2.2-2.4 µs p50, 1.7-1.8 µs with two spinning and the rest parked. Waking every
 *       worker on every publish made that publish take 18.5 µs; a publish wakes one.
 *   <li><b>Stand aside rather than race.</b> A retire thread that raced awaiting threads for every
 *       ticket cost each one-task round trip about 0.9 µs on the H100 host (the partition's cache
 *       lines passed between two cores), so it parks while threads await.
 *   <li><b>Timer slack.</b> A parked thread wakes about 50 µs late on Linux's default timer
 *       slack, so the IO pump yields for 100 µs after its last request before it parks; and an IO
 *       thread that yielded through reads in flight instead of parking took the cores the tasks
 *       needed on the dev VM (four times the involuntary context switches, cold loads 15 % slower).
 * </ul>
 */
public interface IdleStrategy {

  /** Waits once when {@code workCount} is 0; otherwise resets, as after {@link #reset()}. */
  default void idle(int workCount) {
    if (workCount > 0) {
      reset();
    } else {
      idle();
    }
  }

  /** Waits once, as the strategy's progress through the current idle spell says. */
  void idle();

  /** Work was found: the next idle starts a new spell (a no-op for strategies without state). */
  void reset();

  /** Spins: one spin-wait hint per idle. Shared; no state. */
  static IdleStrategy busySpin() {
    return BusySpin.INSTANCE;
  }

  /** Yields the core once per idle. Shared; no state. */
  static IdleStrategy yielding() {
    return Yielding.INSTANCE;
  }

  /** Parks {@code parkNanos} on every idle. Shareable; no state. */
  static IdleStrategy sleeping(long parkNanos) {
    return new Sleeping(parkNanos);
  }

  /**
   * Spins for the first {@code spins} idles of a spell, yields for the next {@code yields}, then
   * parks {@code minParkNanos}, doubling on each idle up to {@code maxParkNanos}.
   */
  static Backoff backoff(int spins, int yields, long minParkNanos, long maxParkNanos) {
    return new Backoff(false, spins, yields, minParkNanos, maxParkNanos);
  }

  /**
   * Spins until {@code spinNanos} have passed since the spell began (its last reset), yields for
   * {@code yieldNanos} more, then parks {@code minParkNanos}, doubling on each park up to {@code
   * maxParkNanos}.
   */
  static Backoff timedBackoff(long spinNanos, long yieldNanos, long minParkNanos, long maxParkNanos) {
    return new Backoff(true, spinNanos, yieldNanos, minParkNanos, maxParkNanos);
  }

  /** See {@link #busySpin()}. */
  final class BusySpin implements IdleStrategy {
    private static final BusySpin INSTANCE = new BusySpin();

    private BusySpin() {}

    @Override
    public void idle() {
      Thread.onSpinWait();
    }

    @Override
    public void reset() {}
  }

  /** See {@link #yielding()}. */
  final class Yielding implements IdleStrategy {
    private static final Yielding INSTANCE = new Yielding();

    private Yielding() {}

    @Override
    public void idle() {
      Thread.yield();
    }

    @Override
    public void reset() {}
  }

  /** See {@link #sleeping(long)}. */
  final class Sleeping implements IdleStrategy {
    private final long parkNanos;

    private Sleeping(long parkNanos) {
      if (parkNanos <= 0) {
        throw new IllegalArgumentException("park time " + parkNanos + " ns is not positive");
      }
      this.parkNanos = parkNanos;
    }

    @Override
    public void idle() {
      LockSupport.parkNanos(parkNanos);
    }

    @Override
    public void reset() {}
  }

  /**
   * Spin, then yield, then park with a doubling time; see {@link #backoff} and {@link
   * #timedBackoff}. One thread's: it counts the idles of the current spell. A loop whose park needs
   * a protocol around it (a flag that tells wakers it sleeps) asks {@link #parking()} first and
   * runs the protocol only when the next idle parks.
   */
  final class Backoff implements IdleStrategy {
    private static final int SPIN = 0;
    private static final int YIELD = 1;
    private static final int PARK = 2;
    private static final int UNDECIDED = -1;

    /** Whether the spin and yield limits are nanoseconds since the reset (else counts of idles). */
    private final boolean timed;
    private final long spinLimit;
    private final long yieldLimit;
    private final long minParkNanos;
    private final long maxParkNanos;
    /** Doublings after which a park lasts {@link #maxParkNanos}. */
    private final int maxDoublings;
    /** Idles of this spell (and rounds counted by {@link #skipRound}), saturating. */
    private int rounds;
    /** Of those, the ones since the spell reached its park phase: the park time doubled that often. */
    private int parkRounds;
    /** When the spell began (System.nanoTime), for the timed limits. */
    private long since;
    /** The rest of this spell parks (see {@link #skipToParking}). */
    private boolean parkNow;
    /** The phase {@link #parking()} saw, which the next idle keeps: the clock may move in between. */
    private int decided = UNDECIDED;

    private Backoff(boolean timed, long spinLimit, long yieldLimit, long minParkNanos, long maxParkNanos) {
      if (spinLimit < 0 || yieldLimit < 0 || minParkNanos <= 0 || maxParkNanos < minParkNanos) {
        throw new IllegalArgumentException("a backoff needs spins and yields >= 0 and 0 < least park <= most park, got "
            + spinLimit + ", " + yieldLimit + ", " + minParkNanos + ", " + maxParkNanos);
      }
      this.timed = timed;
      this.spinLimit = spinLimit;
      this.yieldLimit = yieldLimit;
      this.minParkNanos = minParkNanos;
      this.maxParkNanos = maxParkNanos;
      // Never so many that the shifted time overflows.
      int doublings = 0;
      while (doublings < Long.numberOfLeadingZeros(minParkNanos) - 1 && minParkNanos << doublings < maxParkNanos) {
        doublings++;
      }
      this.maxDoublings = doublings;
      reset();
    }

    @Override
    public void idle() {
      int phase = phase();
      decided = UNDECIDED;
      if (phase == SPIN) {
        Thread.onSpinWait();
      } else if (phase == YIELD) {
        Thread.yield();
      } else {
        LockSupport.parkNanos(nextParkNanos());
      }
      count(phase);
    }

    @Override
    public void reset() {
      rounds = 0;
      parkRounds = 0;
      parkNow = false;
      decided = UNDECIDED;
      if (timed) {
        since = System.nanoTime();
      }
    }

    /**
     * Whether the next idle parks: the spin and yield phases of this spell are over. Decided now and
     * kept until that idle (or a reset), so that the caller's protocol and the idle agree even when
     * the clock passes a limit in between.
     */
    public boolean parking() {
      return phase() == PARK;
    }

    /** Skips the spin and yield phases: every idle until the next reset parks. */
    public void skipToParking() {
      parkNow = true;
      decided = UNDECIDED;
    }

    /** How long the next idle parks if it parks. */
    public long nextParkNanos() {
      return Math.min(minParkNanos << Math.min(parkRounds, maxDoublings), maxParkNanos);
    }

    /** Idles of this spell so far (saturating at {@link Integer#MAX_VALUE}); 0 right after a reset. */
    public int rounds() {
      return rounds;
    }

    /**
     * Counts a round that the caller waited for in its own way (the retire thread's parks while it
     * stands aside), so that the spell goes on from there as if this had idled.
     */
    void skipRound() {
      count(phase());
      decided = UNDECIDED;
    }

    private int phase() {
      if (decided == UNDECIDED) {
        long progress = timed ? System.nanoTime() - since : rounds;
        decided = parkNow || progress >= spinLimit + yieldLimit ? PARK : progress < spinLimit ? SPIN : YIELD;
      }
      return decided;
    }

    private void count(int phase) {
      if (rounds != Integer.MAX_VALUE) {
        rounds++;
      }
      if (phase == PARK && parkRounds != Integer.MAX_VALUE) {
        parkRounds++;
      }
    }
  }
}
