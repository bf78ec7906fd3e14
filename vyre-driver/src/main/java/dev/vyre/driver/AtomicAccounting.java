package dev.vyre.driver;

import dev.vyre.driver.error.VyreException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntUnaryOperator;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;
import java.util.function.LongUnaryOperator;

/**
 * vyre's atomic accounting ({@code vyre-driver/src/accounting_atomic.rs}): shared u64 and u32
 * counters that never wrap. Every helper is one {@link #checkedUpdate} loop: compute the next value
 * from the one observed, publish it only if nobody moved the counter in between, so a rejected
 * update (overflow, underflow, a guard) leaves the counter untouched.
 *
 * <p>Java's volatile compare-and-exchange is at least as strong as every ordering vyre passes
 * (Relaxed for u64 adds, Acquire/AcqRel for usize adds and subtractions), so no ordering
 * parameters are carried. A {@code usize} counter is an {@link AtomicLong}; a u32 counter is an
 * {@link AtomicInteger} holding the u32 bit pattern.
 */
public final class AtomicAccounting {

  /** Builds the error for a counter that cannot take an operand: (value observed, operand). */
  @FunctionalInterface
  public interface CounterError {
    VyreException build(long observed, long operand);
  }

  /** Told about an unusual transition of a counter, as two u64 values (which ones: see each helper). */
  @FunctionalInterface
  public interface CounterEvent {
    void on(long first, long second);
  }

  private static final LongConsumer ACCEPT_ANY = next -> {};
  private static final CounterEvent KEEP_RETRYING = (observed, actual) -> {};

  private AtomicAccounting() {}

  /**
   * {@code checked_atomic_update_u64}: publishes {@code update(observed)} and returns the value it
   * replaced. {@code update} throws to abort without publishing; {@code onRetry(observed, actual)}
   * hears about each lost race and may throw to give up.
   */
  public static long checkedUpdate(AtomicLong counter, LongUnaryOperator update, CounterEvent onRetry) {
    long observed = counter.get();
    while (true) {
      long witness = counter.compareAndExchange(observed, update.applyAsLong(observed));
      if (witness == observed) {
        return observed;
      }
      onRetry.on(observed, witness);
      observed = witness;
    }
  }

  /**
   * {@code checked_atomic_update_u32}: {@link #checkedUpdate(AtomicLong, LongUnaryOperator, CounterEvent)}
   * over u32 bit patterns.
   */
  public static int checkedUpdateU32(AtomicInteger counter, IntUnaryOperator update, CounterEvent onRetry) {
    int observed = counter.get();
    while (true) {
      int witness = counter.compareAndExchange(observed, update.applyAsInt(observed));
      if (witness == observed) {
        return observed;
      }
      onRetry.on(Unsigned.u32(observed), Unsigned.u32(witness));
      observed = witness;
    }
  }

  /**
   * {@code checked_atomic_add_u64} (and {@code _usize}): adds {@code value}, or throws
   * {@code overflow(observed, value)} without publishing.
   */
  public static void checkedAdd(AtomicLong counter, long value, CounterError overflow) {
    checkedAdd(counter, value, overflow, ACCEPT_ANY);
  }

  /**
   * {@code checked_atomic_add_*_guarded}: as {@link #checkedAdd(AtomicLong, long, CounterError)},
   * and {@code validateNext} sees each candidate next value first and throws to reject it.
   */
  public static void checkedAdd(AtomicLong counter, long value, CounterError overflow, LongConsumer validateNext) {
    checkedUpdate(counter, observed -> {
      if (Unsigned.addOverflows(observed, value)) {
        throw overflow.build(observed, value);
      }
      validateNext.accept(observed + value);
      return observed + value;
    }, KEEP_RETRYING);
  }

  /**
   * {@code checked_atomic_sub_*}: subtracts {@code value} (0 is a no-op), or throws
   * {@code underflow(observed, value)} without publishing.
   */
  public static void checkedSub(AtomicLong counter, long value, CounterError underflow) {
    if (value == 0) {
      return;
    }
    checkedUpdate(counter, observed -> {
      if (Unsigned.subUnderflows(observed, value)) {
        throw underflow.build(observed, value);
      }
      return observed - value;
    }, KEEP_RETRYING);
  }

  /**
   * {@code repair_atomic_sub_usize_fetch}: subtracts {@code value} and returns the value observed
   * before. Where that would underflow, stores 0 instead and calls {@code onRepair(observed, value)}.
   * Only for release paths that must repair a corrupt counter rather than fail.
   */
  public static long repairingSubFetch(AtomicLong counter, long value, CounterEvent onRepair) {
    if (value == 0) {
      return counter.get();
    }
    long previous = saturatingSub(counter, value);
    if (Unsigned.subUnderflows(previous, value)) {
      onRepair.on(previous, value);
    }
    return previous;
  }

  /**
   * {@code pinning_atomic_add_usize}: adds {@code value}, pinning at u64::MAX instead of wrapping,
   * and returns the value observed before. {@code onPinned(previous, value)} runs once, on the add
   * that reaches the pin, and not on later adds to a pinned counter.
   */
  public static long pinningAdd(AtomicLong counter, long value, CounterEvent onPinned) {
    if (value == 0) {
      return counter.get();
    }
    long previous = saturatingAdd(counter, value);
    if (previous != Unsigned.U64_MAX && Unsigned.saturatingAddU64(previous, value) == Unsigned.U64_MAX) {
      onPinned.on(previous, value);
    }
    return previous;
  }

  /**
   * {@code pinning_atomic_increment_u64}: true when incremented; false, after {@code onPinned},
   * when already at u64::MAX.
   */
  public static boolean pinningIncrement(AtomicLong counter, Runnable onPinned) {
    long previous = saturatingAdd(counter, 1);
    return incremented(previous == Unsigned.U64_MAX, onPinned);
  }

  /** {@code pinning_atomic_increment_u32}: {@link #pinningIncrement(AtomicLong, Runnable)} at u32::MAX. */
  public static boolean pinningIncrementU32(AtomicInteger counter, Runnable onPinned) {
    int previous = checkedUpdateU32(counter,
        bits -> (int) Unsigned.saturatingAddU32(Unsigned.u32(bits), 1), KEEP_RETRYING);
    return incremented(Unsigned.u32(previous) == Unsigned.U32_MAX, onPinned);
  }

  /**
   * {@code rebasing_atomic_next_u64}: allocates the current value and publishes the next one,
   * or {@code rebaseTo} instead of wrapping past u64::MAX, then calls
   * {@code onRebase(u64::MAX, rebaseTo)}.
   */
  public static long rebasingNext(AtomicLong counter, long rebaseTo, CounterEvent onRebase) {
    long previous = checkedUpdate(counter,
        observed -> observed == Unsigned.U64_MAX ? rebaseTo : observed + 1, KEEP_RETRYING);
    if (previous == Unsigned.U64_MAX) {
      onRebase.on(previous, rebaseTo);
    }
    return previous;
  }

  /**
   * {@code checked_atomic_next_u64}: allocates the current value and publishes the next one, or
   * throws {@code overflow(u64::MAX)}.
   */
  public static long checkedNext(AtomicLong counter, LongFunction<? extends VyreException> overflow) {
    return checkedUpdate(counter, observed -> {
      if (observed == Unsigned.U64_MAX) {
        throw overflow.apply(observed);
      }
      return observed + 1;
    }, KEEP_RETRYING);
  }

  /**
   * Adds {@code value} to the counter, both unsigned, stopping at u64::MAX; returns the previous
   * value. Allocation-free (a lambda capturing {@code value} would allocate on every call).
   */
  public static long saturatingAdd(AtomicLong counter, long value) {
    return counter.getAndAccumulate(value, Unsigned::saturatingAddU64);
  }

  /** Subtracts {@code value} from the counter, both unsigned, stopping at 0; returns the previous value. Allocation-free. */
  public static long saturatingSub(AtomicLong counter, long value) {
    return counter.getAndAccumulate(value, Unsigned::saturatingSubU64);
  }

  /** {@code atomic_max_u64}: raises the counter to at least {@code value} (unsigned) and returns the previous value. */
  public static long max(AtomicLong counter, long value) {
    return counter.getAndAccumulate(value, (current, candidate) ->
        Unsigned.compareU64(current, candidate) >= 0 ? current : candidate);
  }

  /**
   * Whether a pinning increment moved the counter. A pinned counter was swapped for its own value
   * (vyre skips that store; nobody can tell the difference) and {@code onPinned} is told.
   */
  private static boolean incremented(boolean wasPinned, Runnable onPinned) {
    if (wasPinned) {
      onPinned.run();
    }
    return !wasPinned;
  }
}
