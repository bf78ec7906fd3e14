package dev.vyre.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** vyre's numeric helpers (docs/PORTS.md, "Numeric conventions"): 128-bit ratios, saturation, rounding and NaN rules. */
class BasisPointsTest {

  @Test
  void ratioU64WideUses128BitArithmeticAndPins() {
    assertEquals(4_638, BasisPoints.ratioU64Wide(60_800, 131_072, 0));
    assertEquals(5_000, BasisPoints.ratioU64Wide(1L << 62, 1L << 63, 0));
    assertEquals(10_000, BasisPoints.ratioU64Wide(1L << 63, 1L << 63, 0));
    assertEquals(-1L, BasisPoints.ratioU64Wide(-1L, 1, 0));
    assertEquals(-1L, BasisPoints.ratioU64Wide(5, 0, -1L));
    assertEquals(7, BasisPoints.ratioU64Wide(5, 0, 7));
    assertEquals(Long.divideUnsigned(-1L, 2), BasisPoints.ratioU64Wide(-1L, 20_000, 0));
  }

  @Test
  void ratioU32PinsAtU32Max() {
    assertEquals(4_294_967_295L, BasisPoints.ratioU32(1L << 40, 1, 0));
    assertEquals(4_294_967_295L, BasisPoints.ratioU32(3, 0, Unsigned.U32_MAX));
    assertEquals(625, BasisPoints.ratioU32(1_024, 16_384, 0));
  }

  @Test
  void finiteRatiosCheckNumeratorThenDenominatorThenSign() {
    assertEquals(11, BasisPoints.finiteRatioTrunc(Double.NaN, Double.NaN, 11, 22));
    assertEquals(22, BasisPoints.finiteRatioTrunc(1, 0, 11, 22));
    assertEquals(22, BasisPoints.finiteRatioTrunc(1, Double.POSITIVE_INFINITY, 11, 22));
    assertEquals(0, BasisPoints.finiteRatioTrunc(-5, 10, 11, 22));
    assertEquals(2_500, BasisPoints.finiteRatioTrunc(250, 1_000, 11, 22));
    assertEquals(6_666, BasisPoints.finiteRatioTrunc(2, 3, 11, 22));
    assertEquals(6_667, BasisPoints.finiteRatioRound(2, 3, 11, 22));
    assertEquals(4_294_967_295L, BasisPoints.finiteRatioRound(1e300, 1e-300, 11, 22));
  }

  @Test
  void finiteUnitTruncIsNotClampedAbove() {
    assertEquals(15_000, BasisPoints.finiteUnitTrunc(1.5, 0));
    assertEquals(9_500, BasisPoints.finiteUnitTrunc(0.95, 0));
    assertEquals(0, BasisPoints.finiteUnitTrunc(-1.0, 0));
    assertEquals(3, BasisPoints.finiteUnitTrunc(Double.NaN, 3));
  }

  @Test
  void roundingIsHalfAwayFromZero() {
    assertEquals(1.0, BasisPoints.roundHalfAwayFromZero(0.5));
    assertEquals(3.0, BasisPoints.roundHalfAwayFromZero(2.5));
    assertEquals(-3.0, BasisPoints.roundHalfAwayFromZero(-2.5));
    assertEquals(14.0, BasisPoints.roundHalfAwayFromZero(13.5));
    assertEquals(1.0, BasisPoints.roundHalfAwayFromZero(1.4999999999999998));
    assertEquals(Double.NaN, BasisPoints.roundHalfAwayFromZero(Double.NaN));
  }

  @Test
  void maxIgnoresASingleNaN() {
    assertEquals(0.0, BasisPoints.maxIgnoringNaN(Double.NaN, 0.0));
    assertEquals(2.0, BasisPoints.maxIgnoringNaN(2.0, Double.NaN));
    assertEquals(2.0, BasisPoints.maxIgnoringNaN(-1.0, 2.0));
  }

  @Test
  void u32ConversionsSaturate() {
    assertEquals(4_294_967_295L, BasisPoints.toU32Trunc(Double.POSITIVE_INFINITY));
    assertEquals(4_294_967_295L, BasisPoints.toU32Trunc(Double.NaN));
    assertEquals(4_294_967_295L, BasisPoints.toU32Trunc(5e9));
    assertEquals(0, BasisPoints.toU32Trunc(-3));
    assertEquals(7, BasisPoints.toU32Trunc(7.9));
    assertEquals(8, BasisPoints.toU32Round(7.5));
  }
}
