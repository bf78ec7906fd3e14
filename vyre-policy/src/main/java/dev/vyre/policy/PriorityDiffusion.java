package dev.vyre.policy;

import dev.vyre.driver.error.BackendException;

/**
 * Sheaf diffusion of priority across priority-class siblings: each step moves every item by
 * {@code x_i := x_i − damping·r_i·x_i}, where {@code r_i} is the item's transmission coefficient
 * (1 shares freely, 0 is isolated), so requeue decisions can be group-aware.
 */
public final class PriorityDiffusion {

  private PriorityDiffusion() {}

  /**
   * The priorities after {@code iterations} diffusion steps; the input unchanged when the two
   * arrays differ in length.
   *
   * @param iterations a u32 held in a {@code long}
   */
  public static double[] diffusePriorityAcrossSiblings(
      double[] priorityStalks, double[] restrictionDiag, double damping, long iterations) {
    double[] out = new double[priorityStalks.length];
    diffusePriorityAcrossSiblingsInto(priorityStalks, restrictionDiag, damping, iterations, out);
    return out;
  }

  /**
   * {@link #diffusePriorityAcrossSiblings} into caller-owned storage, allocating nothing; returns
   * how many values it wrote (the length of {@code priorityStalks}).
   *
   * @throws BackendException when {@code out} is shorter than {@code priorityStalks}
   */
  public static int diffusePriorityAcrossSiblingsInto(
      double[] priorityStalks, double[] restrictionDiag, double damping, long iterations, double[] out) {
    int n = priorityStalks.length;
    if (out.length < n) {
      throw BackendException.other("megakernel priority diffusion output holds " + out.length
          + " element(s) but needs " + n + ". Fix: pass an output array at least as long as the priorities.");
    }
    System.arraycopy(priorityStalks, 0, out, 0, n);
    if (n != restrictionDiag.length) {
      return n;
    }
    // Each step is element-wise, so stepping in place matches vyre's double-buffered loop bit for bit.
    for (long step = 0; step < iterations; step++) {
      boolean changed = false;
      for (int i = 0; i < n; i++) {
        double next = out[i] - damping * restrictionDiag[i] * out[i];
        changed |= Double.doubleToRawLongBits(next) != Double.doubleToRawLongBits(out[i]);
        out[i] = next;
      }
      if (!changed) {
        break; // a fixed point: every further step would write the same bits
      }
    }
    return n;
  }
}
