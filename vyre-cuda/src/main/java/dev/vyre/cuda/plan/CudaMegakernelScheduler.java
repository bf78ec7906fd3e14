package dev.vyre.cuda.plan;

import dev.vyre.driver.BasisPoints;
import dev.vyre.driver.planner.MegakernelExecutionSample;
import java.util.Arrays;
import java.util.List;

/**
 * The telemetry adapters of vyre's {@code megakernel_scheduler.rs}: a schedule sample from CUDA
 * telemetry, and the fusion-pressure scheduler ({@code schedule_megakernel_from_cuda_samples}),
 * a homotopy continuation that gives each candidate a fusion indicator in [0, 1], higher for
 * expensive, readback-heavy, launch-dominated and dense candidates.
 */
public final class CudaMegakernelScheduler {

  private CudaMegakernelScheduler() {}

  /**
   * {@code from_telemetry_snapshot}: the dispatch cost as given, the frontier density from the
   * logical thread utilization (launched logical elements over scheduled thread slots, in bps),
   * the readback volume as measured.
   */
  public static MegakernelExecutionSample sampleFromTelemetry(long logicalThreadUtilizationBps, long readbackBytes,
      double dispatchCostNs) {
    return new MegakernelExecutionSample(dispatchCostNs, logicalThreadUtilizationBps / (double) BasisPoints.DENOMINATOR,
        readbackBytes);
  }

  /** {@code schedule_megakernel_from_cuda_samples}: one fusion indicator per sample. */
  public static double[] scheduleMegakernelFromCudaSamples(List<MegakernelExecutionSample> samples,
      double launchOverheadNs, long steps, double dt) {
    return scheduleMegakernelFromCudaSamplesInto(samples, launchOverheadNs, steps, dt, new double[samples.size()]);
  }

  /**
   * {@code schedule_megakernel_from_cuda_samples_into}: as {@link #scheduleMegakernelFromCudaSamples},
   * writing into {@code out} when it holds at least one slot per sample (and zeroing the slots past
   * them), otherwise into a new array; returns the array written. {@code steps} is a u32.
   *
   * @throws MegakernelScheduleException checked in vyre's order: {@code dt}, the launch overhead,
   *     then each sample's cost and density
   */
  public static double[] scheduleMegakernelFromCudaSamplesInto(List<MegakernelExecutionSample> samples,
      double launchOverheadNs, long steps, double dt, double[] out) {
    validate(samples, launchOverheadNs, dt);
    int count = samples.size();
    double[] result = out.length >= count ? out : new double[count];
    Arrays.fill(result, 0.0);
    double maxCost = 0.0;
    long maxReadback = 0;
    for (MegakernelExecutionSample sample : samples) {
      maxCost = BasisPoints.maxIgnoringNaN(maxCost, sample.dispatchCostNs());
      maxReadback = Long.compareUnsigned(sample.readbackBytes(), maxReadback) > 0 ? sample.readbackBytes() : maxReadback;
    }
    if (count == 0 || steps == 0 || (maxCost == 0.0 && maxReadback == 0 && launchOverheadNs == 0.0)) {
      return result;
    }
    double step = Math.clamp(dt, 0.0, 1.0);
    double inverseCost = maxCost == 0.0 ? 0.0 : 1.0 / maxCost;
    double inverseReadback = maxReadback == 0 ? 0.0 : 1.0 / unsignedToDouble(maxReadback);
    for (long s = 0; s < steps; s++) {
      double alpha = (double) (s + 1) / (double) steps;
      for (int index = 0; index < count; index++) {
        MegakernelExecutionSample sample = samples.get(index);
        double cost = sample.dispatchCostNs();
        double target = alpha * pressure(cost * inverseCost, unsignedToDouble(sample.readbackBytes()) * inverseReadback,
            launchDominance(launchOverheadNs, cost), sample.frontierDensity());
        result[index] += step * (target - result[index]);
      }
    }
    for (int index = 0; index < count; index++) {
      result[index] = Math.clamp(result[index], 0.0, 1.0);
    }
    return result;
  }

  private static void validate(List<MegakernelExecutionSample> samples, double launchOverheadNs, double dt) {
    if (!Double.isFinite(dt) || dt < 0.0) {
      throw MegakernelScheduleException.invalidStep(dt);
    }
    if (!Double.isFinite(launchOverheadNs) || launchOverheadNs < 0.0) {
      throw MegakernelScheduleException.invalidLaunchOverhead(launchOverheadNs);
    }
    for (int index = 0; index < samples.size(); index++) {
      MegakernelExecutionSample sample = samples.get(index);
      if (!Double.isFinite(sample.dispatchCostNs()) || sample.dispatchCostNs() < 0.0) {
        throw MegakernelScheduleException.invalidCost(index, sample.dispatchCostNs());
      }
      double density = sample.frontierDensity();
      if (!Double.isFinite(density) || density < 0.0 || density > 1.0) {
        throw MegakernelScheduleException.invalidFrontierDensity(index, density);
      }
    }
  }

  private static double launchDominance(double launchOverheadNs, double costNs) {
    double denominator = launchOverheadNs + costNs;
    return denominator == 0.0 ? 0.0 : Math.clamp(launchOverheadNs / denominator, 0.0, 1.0);
  }

  /** The weighted pressure toward fusion; cost counts more on dense frontiers. */
  private static double pressure(double cost, double readback, double launch, double frontier) {
    double densityAdjustedCost = cost * (0.65 + 0.35 * frontier);
    return Math.clamp(0.55 * densityAdjustedCost + 0.25 * readback + 0.15 * launch + 0.05 * frontier, 0.0, 1.0);
  }

  /** Rust's {@code u64 as f64}: the unsigned value rounded to the nearest double. */
  private static double unsignedToDouble(long value) {
    // Halve with the low bit kept as a sticky bit, so the single rounding matches the exact value's.
    return value >= 0 ? value : (double) ((value >>> 1) | (value & 1)) * 2.0;
  }
}
