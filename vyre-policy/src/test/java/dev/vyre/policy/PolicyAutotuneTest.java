package dev.vyre.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.driver.error.BackendException;
import org.junit.jupiter.api.Test;

class PolicyAutotuneTest {

  @Test
  void bestCostFollowsRustTotalOrder() {
    assertEquals(2, PolicyAutotune.bestCostIndex(new double[] {9, 5, 1, 3}, 4));
    assertEquals(1, PolicyAutotune.bestCostIndex(new double[] {0.0, -0.0}, 2));
    assertEquals(0, PolicyAutotune.bestCostIndex(new double[] {Double.POSITIVE_INFINITY, Double.NaN}, 2));
    assertEquals(1, PolicyAutotune.bestCostIndex(new double[] {Double.NaN, Double.POSITIVE_INFINITY}, 2));
    assertEquals(0, PolicyAutotune.bestCostIndex(new double[] {3, 3}, 2));
    assertEquals(0, PolicyAutotune.bestCostIndex(new double[] {3, 1}, 1));
    double negativeNan = Double.longBitsToDouble(0xFFF8_0000_0000_0000L);
    assertEquals(1, PolicyAutotune.bestCostIndex(new double[] {Double.NEGATIVE_INFINITY, negativeNan}, 2));
  }

  @Test
  void naturalGradientWithTheIdentityIsPlainDescent() {
    assertArrayEquals(new double[] {-1.5, 1.0},
        PolicyAutotune.naturalGradientStep(new double[] {1, 0, 0, 1}, new double[] {3, -2}, 2, 0.5));
  }

  @Test
  void naturalGradientOfShortInputsIsEmpty() {
    assertArrayEquals(new double[0], PolicyAutotune.naturalGradientStep(new double[] {1, 0, 0}, new double[] {3, -2}, 2, 0.5));
    assertArrayEquals(new double[0], PolicyAutotune.naturalGradientStep(new double[] {1, 0, 0, 1}, new double[] {3}, 2, 0.5));
    assertArrayEquals(new double[0], PolicyAutotune.naturalGradientStep(new double[0], new double[0], 4_294_967_295L, 1));
    assertArrayEquals(new double[0], PolicyAutotune.naturalGradientStep(new double[0], new double[0], 0, 1));
  }

  @Test
  void naturalGradientIntoCallerStorage() {
    double[] out = new double[3];
    assertEquals(2, PolicyAutotune.naturalGradientStepInto(
        new double[] {2, 1, 0, 1}, new double[] {3, -2}, 2, 1, out));
    assertArrayEquals(new double[] {-4, 2, 0}, out);
    assertThrows(BackendException.class, () -> PolicyAutotune.naturalGradientStepInto(
        new double[] {2, 1, 0, 1}, new double[] {3, -2}, 2, 1, new double[1]));
  }
}
