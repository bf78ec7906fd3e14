package dev.vyre.driver;

/**
 * vyre's basis-point helpers ({@code vyre-driver/src/numeric.rs}): integer ratios computed in
 * 128 bits, float ratios converted to u32 by truncation or half-away-from-zero rounding, with the
 * same saturation and NaN rules, so that every planner reproduces vyre's pressures bit for bit.
 * Results are unsigned values held in a {@code long}.
 */
public final class BasisPoints {

  /** 10,000 bps = 100%. */
  public static final long DENOMINATOR = 10_000;

  private static final double U32_MAX_AS_DOUBLE = Unsigned.U32_MAX;

  private BasisPoints() {}

  /**
   * {@code ratio_bps_u64_wide}: {@code floor(part * 10000 / whole)} over u64 inputs in 128-bit
   * arithmetic, {@code zeroDenominatorValue} when {@code whole == 0}, pinned at u64::MAX.
   */
  public static long ratioU64Wide(long part, long whole, long zeroDenominatorValue) {
    return whole == 0 ? zeroDenominatorValue : Unsigned.mulDivSaturatingU64(part, DENOMINATOR, whole);
  }

  /** {@code ratio_bps_u64}: {@link #ratioU64Wide} pinned at u32::MAX. */
  public static long ratioU32(long part, long whole, long zeroDenominatorValue) {
    long value = ratioU64Wide(part, whole, zeroDenominatorValue);
    return Long.compareUnsigned(value, Unsigned.U32_MAX) > 0 ? Unsigned.U32_MAX : value;
  }

  /**
   * {@code finite_f64_ratio_bps_trunc}: {@code invalidNumerator} for a non-finite numerator,
   * {@code invalidDenominator} for a non-finite or non-positive denominator, 0 for a numerator
   * {@code <= 0}, otherwise {@code (num / den) * 10000} truncated to u32 with saturation.
   */
  public static long finiteRatioTrunc(double numerator, double denominator, long invalidNumerator, long invalidDenominator) {
    return finiteRatio(numerator, denominator, invalidNumerator, invalidDenominator, false);
  }

  /** {@code finite_f64_ratio_bps_round}: as {@link #finiteRatioTrunc}, rounding half away from zero. */
  public static long finiteRatioRound(double numerator, double denominator, long invalidNumerator, long invalidDenominator) {
    return finiteRatio(numerator, denominator, invalidNumerator, invalidDenominator, true);
  }

  /**
   * {@code finite_f64_unit_bps_trunc}: {@code invalid} for a non-finite value, otherwise
   * {@code max(v, 0) * 10000} truncated to u32. The upper end is not clamped to 1.0.
   */
  public static long finiteUnitTrunc(double value, long invalid) {
    if (!Double.isFinite(value)) {
      return invalid;
    }
    return toU32Trunc(Math.max(value, 0.0) * DENOMINATOR);
  }

  /** Rust {@code f64::round}: half away from zero (unlike {@link Math#rint}, which rounds half to even). */
  public static double roundHalfAwayFromZero(double value) {
    if (!Double.isFinite(value)) {
      return value;
    }
    double magnitude = Math.abs(value);
    double floor = Math.floor(magnitude);
    double rounded = magnitude - floor >= 0.5 ? floor + 1.0 : floor;
    return Math.copySign(rounded, value);
  }

  /** Rust {@code f64::max}: when exactly one operand is NaN the other one wins (Java's {@code Math.max} returns NaN). */
  public static double maxIgnoringNaN(double a, double b) {
    if (Double.isNaN(a)) {
      return b;
    }
    if (Double.isNaN(b)) {
      return a;
    }
    return Math.max(a, b);
  }

  private static long finiteRatio(double numerator, double denominator, long invalidNumerator,
      long invalidDenominator, boolean round) {
    if (!Double.isFinite(numerator)) {
      return invalidNumerator;
    }
    if (!Double.isFinite(denominator) || denominator <= 0.0) {
      return invalidDenominator;
    }
    if (numerator <= 0.0) {
      return 0;
    }
    double bps = (numerator / denominator) * DENOMINATOR;
    return round ? toU32Round(bps) : toU32Trunc(bps);
  }

  /** {@code finite_f64_to_u32_trunc}: non-finite → u32::MAX, {@code <= 0} → 0, above u32::MAX → u32::MAX. */
  static long toU32Trunc(double value) {
    if (!Double.isFinite(value)) {
      return Unsigned.U32_MAX;
    }
    if (value <= 0.0) {
      return 0;
    }
    return value > U32_MAX_AS_DOUBLE ? Unsigned.U32_MAX : (long) value;
  }

  /** {@code finite_f64_to_u32_round}: rounds half away from zero, then saturates like {@link #toU32Trunc}. */
  static long toU32Round(double value) {
    return toU32Trunc(roundHalfAwayFromZero(value));
  }
}
