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
 * counters that never wrap. Each helper is a compare-and-exchange loop that computes the next
 * value from the one it observed and publishes it only if nobody moved the counter in between, so
 * a rejected update (overflow, underflow, a guard) leaves the counter untouched.
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

  private AtomicAccounting() {}

  /** {@code checked_atomic_add_u64} (and {@code _usize}): adds {@code value}, or throws {@code overflow(observed, value)} without publishing. */
  public static void checkedAdd(AtomicLong counter, long value, CounterError overflow) {
    checkedAdd(counter, value, overflow, ACCEPT_ANY);
  }

  /**
   * {@code checked_atomic_add_*_guarded}: as {@link #checkedAdd(AtomicLong, long, CounterError)},
   * and {@code validateNext} sees each candidate next value first and throws to reject it.
   */
  public static void checkedAdd(AtomicLong counter, long value, CounterError overflow, LongConsumer validateNext) {
    long observed = counter.get();
    while (true) {
      if (Unsigned.addOverflows(observed, value)) {
        throw overflow.build(observed, value);
      }
      long next = observed + value;
      validateNext.accept(next);
      long witness = counter.compareAndExchange(observed, next);
      if (witness == observed) {
        return;
      }
      observed = witness;
    }
  }

  /** {@code checked_atomic_sub_*}: subtracts {@code value} (0 is a no-op), or throws {@code underflow(observed, value)} without publishing. */
  public static void checkedSub(AtomicLong counter, long value, CounterError underflow) {
    if (value == 0) {
      return;
    }
    long observed = counter.get();
    while (true) {
      if (Unsigned.subUnderflows(observed, value)) {
        throw underflow.build(observed, value);
      }
      long witness = counter.compareAndExchange(observed, observed - value);
      if (witness == observed) {
        return;
      }
      observed = witness;
    }
  }

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

  /** {@code checked_atomic_update_u32}: {@link #checkedUpdate(AtomicLong, LongUnaryOperator, CounterEvent)} over u32 bit patterns. */
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
   * {@code repair_atomic_sub_usize_fetch}: subtracts {@code value} and returns the value observed
   * before. Where that would underflow, stores 0 instead and calls {@code onRepair(observed, value)}.
   * Only for release paths that must repair a corrupt counter rather than fail.
   */
  public static long repairingSubFetch(AtomicLong counter, long value, CounterEvent onRepair) {
    long observed = counter.get();
    if (value == 0) {
      return observed;
    }
    while (true) {
      boolean repair = Unsigned.subUnderflows(observed, value);
      long witness = counter.compareAndExchange(observed, repair ? 0 : observed - value);
      if (witness == observed) {
        if (repair) {
          onRepair.on(observed, value);
        }
        return observed;
      }
      observed = witness;
    }
  }

  /**
   * {@code pinning_atomic_add_usize}: adds {@code value}, pinning at u64::MAX instead of wrapping,
   * and returns the value observed before. {@code onPinned(previous, value)} runs once, on the add
   * that reaches the pin, and not on later adds to a pinned counter.
   */
  public static long pinningAdd(AtomicLong counter, long value, CounterEvent onPinned) {
    long observed = counter.get();
    if (value == 0) {
      return observed;
    }
    while (true) {
      long next = Unsigned.saturatingAddU64(observed, value);
      long witness = counter.compareAndExchange(observed, next);
      if (witness == observed) {
        if (next == Unsigned.U64_MAX && observed != Unsigned.U64_MAX) {
          onPinned.on(observed, value);
        }
        return observed;
      }
      observed = witness;
    }
  }

  /** {@code pinning_atomic_increment_u64}: true when incremented; false, after {@code onPinned}, when already at u64::MAX. */
  public static boolean pinningIncrement(AtomicLong counter, Runnable onPinned) {
    long observed = counter.get();
    while (true) {
      if (observed == Unsigned.U64_MAX) {
        onPinned.run();
        return false;
      }
      long witness = counter.compareAndExchange(observed, observed + 1);
      if (witness == observed) {
        return true;
      }
      observed = witness;
    }
  }

  /** {@code pinning_atomic_increment_u32}: {@link #pinningIncrement(AtomicLong, Runnable)} at u32::MAX. */
  public static boolean pinningIncrementU32(AtomicInteger counter, Runnable onPinned) {
    int observed = counter.get();
    while (true) {
      if (Unsigned.u32(observed) == Unsigned.U32_MAX) {
        onPinned.run();
        return false;
      }
      int witness = counter.compareAndExchange(observed, observed + 1);
      if (witness == observed) {
        return true;
      }
      observed = witness;
    }
  }

  /**
   * {@code rebasing_atomic_next_u64}: allocates the current value and publishes the next one,
   * or {@code rebaseTo} instead of wrapping past u64::MAX, then calls
   * {@code onRebase(u64::MAX, rebaseTo)}.
   */
  public static long rebasingNext(AtomicLong counter, long rebaseTo, CounterEvent onRebase) {
    long observed = counter.get();
    while (true) {
      boolean rebase = observed == Unsigned.U64_MAX;
      long witness = counter.compareAndExchange(observed, rebase ? rebaseTo : observed + 1);
      if (witness == observed) {
        if (rebase) {
          onRebase.on(observed, rebaseTo);
        }
        return observed;
      }
      observed = witness;
    }
  }

  /** {@code checked_atomic_next_u64}: allocates the current value and publishes the next one, or throws {@code overflow(u64::MAX)}. */
  public static long checkedNext(AtomicLong counter, LongFunction<? extends VyreException> overflow) {
    long observed = counter.get();
    while (true) {
      if (observed == Unsigned.U64_MAX) {
        throw overflow.apply(observed);
      }
      long witness = counter.compareAndExchange(observed, observed + 1);
      if (witness == observed) {
        return observed;
      }
      observed = witness;
    }
  }

  /** {@code atomic_max_u64}: raises the counter to at least {@code value} (unsigned) and returns the previous value. */
  public static long max(AtomicLong counter, long value) {
    return counter.getAndAccumulate(value, (current, candidate) ->
        Unsigned.compareU64(current, candidate) >= 0 ? current : candidate);
  }
}
