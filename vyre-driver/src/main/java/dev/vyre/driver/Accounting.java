package dev.vyre.driver;

import dev.vyre.driver.error.VyreException;
import java.util.function.Function;

/**
 * vyre's checked count arithmetic ({@code vyre-driver/src/accounting.rs}): u64 additions and
 * multiplications that turn an overflow into the caller's domain error, built from the name of
 * the field being computed (for a planner, its {@code ByteCountOverflow{field}} variant).
 */
public final class Accounting {

  private Accounting() {}

  /** {@code checked_add_u64_count}: {@code a + b}, or {@code overflow.apply(field)} when the u64 sum wraps. */
  public static long checkedAddU64(long a, long b, String field, Function<String, ? extends VyreException> overflow) {
    long sum = a + b;
    if (Long.compareUnsigned(sum, a) < 0) {
      throw overflow.apply(field);
    }
    return sum;
  }

  /** {@code checked_mul_u64_count}: {@code a * b}, or {@code overflow.apply(field)} when the u64 product wraps. */
  public static long checkedMulU64(long a, long b, String field, Function<String, ? extends VyreException> overflow) {
    if (Math.unsignedMultiplyHigh(a, b) != 0) {
      throw overflow.apply(field);
    }
    return a * b;
  }
}
