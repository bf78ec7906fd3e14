package dev.vyre.policy;

import dev.vyre.driver.error.BackendException;

/**
 * Autotune arithmetic of the launch policy: the lowest-cost candidate and the Fisher-preconditioned
 * natural-gradient step for continuous knobs (workgroup size, hit capacity, fixpoint iterations).
 */
public final class PolicyAutotune {

  private PolicyAutotune() {}

  /**
   * The index of the first minimum among {@code costs[0..n)} under Rust's {@code f64::total_cmp}:
   * {@code -0.0 < 0.0}, and a positive NaN ranks above +infinity. {@code n} must be at least 1.
   */
  static int bestCostIndex(double[] costs, int n) {
    int best = 0;
    long bestKey = totalOrderKey(costs[0]);
    for (int index = 1; index < n; index++) {
      long key = totalOrderKey(costs[index]);
      if (key < bestKey) {
        best = index;
        bestKey = key;
      }
    }
    return best;
  }

  /** Rust's {@code total_cmp} key: flips the magnitude bits of negatives so signed order is total order. */
  private static long totalOrderKey(double value) {
    long bits = Double.doubleToRawLongBits(value);
    return bits ^ ((bits >> 63) >>> 1);
  }

  /**
   * The parameter delta {@code -learningRate · M · grad} for a row-major {@code n×n} matrix
   * {@code mInvSqrt} (the inverse square root of the Fisher block; the identity gives plain
   * gradient descent). Empty when {@code mInvSqrt} has fewer than {@code n²} values or {@code grad}
   * fewer than {@code n}.
   *
   * @param n the dimension, a u32 held in a {@code long}
   */
  public static double[] naturalGradientStep(double[] mInvSqrt, double[] grad, long n, double learningRate) {
    double[] out = new double[fits(mInvSqrt, grad, n) ? (int) n : 0];
    naturalGradientStepInto(mInvSqrt, grad, n, learningRate, out);
    return out;
  }

  /**
   * {@link #naturalGradientStep} into caller-owned storage; returns how many values it wrote
   * ({@code n}, or 0 when the inputs are too short).
   *
   * @throws BackendException when {@code out} is shorter than {@code n}
   */
  public static int naturalGradientStepInto(
      double[] mInvSqrt, double[] grad, long n, double learningRate, double[] out) {
    if (!fits(mInvSqrt, grad, n)) {
      return 0;
    }
    int size = (int) n;
    if (out.length < size) {
      throw BackendException.other("megakernel natural-gradient output holds " + out.length + " element(s) but needs "
          + size + ". Fix: pass an output array at least n long.");
    }
    for (int row = 0; row < size; row++) {
      double acc = 0.0;
      for (int col = 0; col < size; col++) {
        acc += mInvSqrt[row * size + col] * grad[col];
      }
      out[row] = -learningRate * acc;
    }
    return size;
  }

  /** True when the matrix holds n² values and the gradient n; n² of a u32 fits u64 unsigned. */
  private static boolean fits(double[] mInvSqrt, double[] grad, long n) {
    return Long.compareUnsigned(mInvSqrt.length, n * n) >= 0 && grad.length >= n;
  }
}
