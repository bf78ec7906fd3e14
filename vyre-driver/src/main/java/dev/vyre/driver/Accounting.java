package dev.vyre.driver;

import dev.vyre.driver.error.VyreException;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * vyre's checked count arithmetic ({@code vyre-driver/src/accounting.rs}): u64 and u32 additions,
 * subtractions and multiplications that turn an overflow (or underflow) into the caller's domain
 * error, built from the name of the field being computed (for a planner, its
 * {@code ByteCountOverflow{field}} variant), and byte-range checks.
 *
 * <p>vyre's {@code _value}, {@code _lazy} and {@code _count} forms collapse into one here: the
 * error function runs only on failure. A {@code usize} is a u64 on the hosts we run on, so the
 * {@code usize} helpers (and the usize-to-u64 offset conversion, which cannot fail) are the u64
 * ones. The non-atomic {@code pinning_increment_u64} is {@link Unsigned#saturatingAddU64}{@code (c, 1)};
 * the atomic helpers are in {@link AtomicAccounting}. A u32 travels as a non-negative {@code long}.
 */
public final class Accounting {

  private Accounting() {}

  /** {@code checked_add_u64_count}: {@code a + b}, or {@code overflow.apply(field)} when the u64 sum wraps. */
  public static long checkedAddU64(long a, long b, String field, Function<String, ? extends VyreException> overflow) {
    if (Unsigned.addOverflows(a, b)) {
      throw overflow.apply(field);
    }
    return a + b;
  }

  /** {@code checked_sub_u64_count}: {@code a - b}, or {@code overflow.apply(field)} when the u64 difference underflows. */
  public static long checkedSubU64(long a, long b, String field, Function<String, ? extends VyreException> overflow) {
    if (Unsigned.subUnderflows(a, b)) {
      throw overflow.apply(field);
    }
    return a - b;
  }

  /** {@code checked_mul_u64_count}: {@code a * b}, or {@code overflow.apply(field)} when the u64 product wraps. */
  public static long checkedMulU64(long a, long b, String field, Function<String, ? extends VyreException> overflow) {
    if (Unsigned.mulOverflows(a, b)) {
      throw overflow.apply(field);
    }
    return a * b;
  }

  /** {@code checked_add_u32_count}: the u32 sum {@code a + b}, or {@code overflow.apply(field)} past u32::MAX. */
  public static long checkedAddU32(long a, long b, String field, Function<String, ? extends VyreException> overflow) {
    return u32OrThrow(Unsigned.checkedAddU32(a, b), field, overflow);
  }

  /** {@code checked_mul_u32_value}: the u32 product {@code a * b}, or {@code overflow.apply(field)} past u32::MAX. */
  public static long checkedMulU32(long a, long b, String field, Function<String, ? extends VyreException> overflow) {
    return u32OrThrow(Unsigned.checkedMulU32(a, b), field, overflow);
  }

  /**
   * {@code checked_usize_byte_range_end_lazy}: the exclusive end {@code start + len} of a byte
   * range; {@code overflow.apply(field)} when the sum wraps, {@code outOfBounds.apply(end)} when
   * the end lies past {@code limit}.
   */
  public static long checkedByteRangeEnd(long start, long len, long limit, String field,
      Function<String, ? extends VyreException> overflow, LongFunction<? extends VyreException> outOfBounds) {
    long end = checkedAddU64(start, len, field, overflow);
    if (Long.compareUnsigned(end, limit) > 0) {
      throw outOfBounds.apply(end);
    }
    return end;
  }

  private static long u32OrThrow(long checked, String field, Function<String, ? extends VyreException> overflow) {
    if (checked < 0) {
      throw overflow.apply(field);
    }
    return checked;
  }
}
