package dev.vyre.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.driver.error.BackendException;
import org.junit.jupiter.api.Test;

class PriorityDiffusionTest {

  @Test
  void oneStepPullsEachItemByItsRestriction() {
    assertArrayEquals(new double[] {9, 19},
        PriorityDiffusion.diffusePriorityAcrossSiblings(new double[] {10, 20}, new double[] {0.5, 0.25}, 0.2, 1));
  }

  @Test
  void repeatedSteps() {
    assertArrayEquals(new double[] {2.25, 1.125, 0.5625},
        PriorityDiffusion.diffusePriorityAcrossSiblings(new double[] {4, 2, 1}, new double[] {1, 1, 1}, 0.25, 2));
  }

  @Test
  void mismatchedLengthsReturnTheInputUnchanged() {
    assertArrayEquals(new double[] {4, 2},
        PriorityDiffusion.diffusePriorityAcrossSiblings(new double[] {4, 2}, new double[] {1}, 0.25, 3));
  }

  @Test
  void billionsOfIterationsStopAtTheFixedPoint() {
    double[] out = PriorityDiffusion.diffusePriorityAcrossSiblings(
        new double[] {1e300, -3, 0}, new double[] {1, 1, 1}, 0.5, 4_294_967_295L);
    // Halving the smallest subnormal rounds to zero, so x - 0.5x stays x: vyre would loop on, unchanged.
    assertArrayEquals(new double[] {Double.MIN_VALUE, -Double.MIN_VALUE, 0}, out);
  }

  @Test
  void callerStorageIsFilledInPlace() {
    double[] out = new double[4];
    assertEquals(2, PriorityDiffusion.diffusePriorityAcrossSiblingsInto(
        new double[] {10, 20}, new double[] {0.5, 0.25}, 0.2, 1, out));
    assertArrayEquals(new double[] {9, 19, 0, 0}, out);
    assertThrows(BackendException.class, () -> PriorityDiffusion.diffusePriorityAcrossSiblingsInto(
        new double[] {10, 20}, new double[] {0.5, 0.25}, 0.2, 1, new double[1]));
  }
}
