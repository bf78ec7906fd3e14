package dev.vyre.driver;

import java.math.BigInteger;

/**
 * Unsigned 32- and 64-bit arithmetic in one place, so that logic never scatters
 * {@code & 0xFFFFFFFFL}. A u32 travels as an {@code int} (its bit pattern) or as a non-negative
 * {@code long}; a u64 travels as a {@code long} bit pattern.
 */
public final class Unsigned {

  public static final int U16_MAX = 0xFFFF;
  public static final long U32_MAX = 0xFFFF_FFFFL;
  public static final long U64_MAX = -1L;

  private Unsigned() {}

  /** The u32 value of an int bit pattern. */
  public static long u32(int bits) {
    return Integer.toUnsignedLong(bits);
  }

  /** True when {@code value} fits in a u16. */
  public static boolean fitsU16(long value) {
    return value >= 0 && value <= U16_MAX;
  }

  /** True when {@code value} fits in a u32. */
  public static boolean fitsU32(long value) {
    return value >= 0 && value <= U32_MAX;
  }

  /**
   * A u32 written in decimal or {@code 0x} hex with ASCII digits only, or -1 when the text is not
   * one (empty, a sign, another character, or a value above 2^32 - 1). Never throws.
   */
  public static long parseU32(String text) {
    boolean hex = text.length() > 2 && text.charAt(0) == '0' && (text.charAt(1) == 'x' || text.charAt(1) == 'X');
    int radix = hex ? 16 : 10;
    int from = hex ? 2 : 0;
    if (text.length() == from) {
      return -1;
    }
    long value = 0;
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      int digit = c < 128 ? Character.digit(c, radix) : -1;
      if (digit < 0) {
        return -1;
      }
      value = value * radix + digit;
      if (value > U32_MAX) {
        return -1;
      }
    }
    return value;
  }

  /** u32 addition that reports overflow as -1 instead of wrapping. */
  public static long checkedAddU32(long a, long b) {
    long sum = a + b;
    return fitsU32(sum) ? sum : -1;
  }

  /** u32 multiplication that reports overflow as -1 instead of wrapping. */
  public static long checkedMulU32(long a, long b) {
    long product = a * b;
    return (a != 0 && product / a != b) || !fitsU32(product) ? -1 : product;
  }

  /** Saturating u32 addition. */
  public static long saturatingAddU32(long a, long b) {
    return Math.min(a + b, U32_MAX);
  }

  /** Saturating u32 subtraction (floors at zero). */
  public static long saturatingSubU32(long a, long b) {
    return a > b ? a - b : 0;
  }

  /** ceil(a / b) for u32 values, b > 0. */
  public static long ceilDivU32(long a, long b) {
    return a == 0 ? 0 : (a - 1) / b + 1;
  }

  /** True when the u64 sum {@code a + b} overflows. */
  public static boolean addOverflows(long a, long b) {
    return Long.compareUnsigned(a + b, a) < 0;
  }

  /** True when the u64 difference {@code a - b} underflows. */
  public static boolean subUnderflows(long a, long b) {
    return Long.compareUnsigned(a, b) < 0;
  }

  /** True when the u64 product {@code a * b} overflows: its high 64 bits are not zero. */
  public static boolean mulOverflows(long a, long b) {
    return Math.unsignedMultiplyHigh(a, b) != 0;
  }

  /** Saturating u64 addition. */
  public static long saturatingAddU64(long a, long b) {
    return addOverflows(a, b) ? U64_MAX : a + b;
  }

  /** Saturating u64 subtraction. */
  public static long saturatingSubU64(long a, long b) {
    return subUnderflows(a, b) ? 0 : a - b;
  }

  /** Saturating u64 multiplication. */
  public static long saturatingMulU64(long a, long b) {
    return mulOverflows(a, b) ? U64_MAX : a * b;
  }

  /**
   * {@code floor(a * b / divisor)} for u64 values, with the product held exactly in 128 bits (as
   * Rust's {@code u128} arithmetic does) and the quotient saturated at u64::MAX; divisor non-zero.
   */
  public static long mulDivSaturatingU64(long a, long b, long divisor) {
    if (!mulOverflows(a, b)) {
      return Long.divideUnsigned(a * b, divisor);
    }
    BigInteger quotient = unsignedBig(a).multiply(unsignedBig(b)).divide(unsignedBig(divisor));
    return quotient.bitLength() > 64 ? U64_MAX : quotient.longValue();
  }

  private static BigInteger unsignedBig(long bits) {
    BigInteger value = BigInteger.valueOf(bits & Long.MAX_VALUE);
    return bits < 0 ? value.setBit(63) : value;
  }

  /** Unsigned comparison of two u64 bit patterns. */
  public static int compareU64(long a, long b) {
    return Long.compareUnsigned(a, b);
  }

  /** The u64 value as a decimal string. */
  public static String u64String(long bits) {
    return Long.toUnsignedString(bits);
  }
}
