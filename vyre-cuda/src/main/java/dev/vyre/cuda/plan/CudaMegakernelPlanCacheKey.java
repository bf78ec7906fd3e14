package dev.vyre.cuda.plan;

import dev.vyre.driver.BasisPoints;
import dev.vyre.driver.Unsigned;

/**
 * vyre's {@code CudaMegakernelPlanCacheKey}: a plan identity plus coarse pressure buckets, so that
 * a sparse first query does not poison dense later queries over the same graph. Every field takes
 * part in equality.
 *
 * <p>The cache computes its pressures in its own convention, which differs from the topology
 * selector's: memory pressure is not clamped to 10000 but pinned at u32::MAX, launch pressure is
 * truncated instead of rounded, and the fusion bucket is not clamped to 1.0.
 *
 * @param identity graph layout, analysis family and device
 * @param frontierDensityBucket {@code round(clamp(density, 0, 1) * 15)}, 0 when not finite
 * @param memoryPressureBucket memory pressure bps / 1000
 * @param readbackPressureBucket bit length of {@code readback >>> 12}, 0 for no readback
 * @param launchPressureBucket launch pressure bps / 1000
 * @param fusionPressureBucket truncated {@code max(fusion, 0)} bps / 1000, 0 when not finite
 */
public record CudaMegakernelPlanCacheKey(CudaMegakernelPlanIdentity identity, int frontierDensityBucket,
    long memoryPressureBucket, int readbackPressureBucket, long launchPressureBucket, long fusionPressureBucket) {

  static final long PRESSURE_BUCKET_BPS = 1_000;
  static final int DENSITY_BUCKETS = 16;
  static final int READBACK_BUCKET_SHIFT = 12;

  /** vyre's {@code CudaMegakernelPlanCacheKey::new}: buckets the runtime pressures. */
  public static CudaMegakernelPlanCacheKey of(CudaMegakernelPlanIdentity identity, double frontierDensity,
      long memoryPressureBps, long readbackBytes, long launchPressureBps, double fusionPressure) {
    return new CudaMegakernelPlanCacheKey(identity, densityBucket(frontierDensity),
        memoryPressureBps / PRESSURE_BUCKET_BPS, readbackBucket(readbackBytes),
        launchPressureBps / PRESSURE_BUCKET_BPS,
        BasisPoints.finiteUnitTrunc(fusionPressure, 0) / PRESSURE_BUCKET_BPS);
  }

  /** The cache's memory pressure: {@code floor(required * 10000 / budget)} in 128 bits, pinned at u32::MAX. */
  static long memoryPressureBps(long requiredBytes, long budgetBytes) {
    return BasisPoints.ratioU32(requiredBytes, budgetBytes, requiredBytes == 0 ? 0 : Unsigned.U32_MAX);
  }

  /**
   * The cache's launch pressure: truncated {@code overhead / cost} bps; a non-finite overhead
   * gives u32::MAX, then a non-finite or non-positive cost gives 0, then an overhead {@code <= 0}
   * gives 0.
   */
  static long launchPressureBps(double dispatchCostNs, double launchOverheadNs) {
    return BasisPoints.finiteRatioTrunc(launchOverheadNs, dispatchCostNs, Unsigned.U32_MAX, 0);
  }

  private static int densityBucket(double frontierDensity) {
    if (!Double.isFinite(frontierDensity)) {
      return 0;
    }
    // In [0, 15] after clamping, so the u16 range check of vyre's conversion never fires.
    return (int) BasisPoints.roundHalfAwayFromZero(Math.clamp(frontierDensity, 0.0, 1.0) * (DENSITY_BUCKETS - 1));
  }

  private static int readbackBucket(long readbackBytes) {
    return readbackBytes == 0 ? 0 : Long.SIZE - Long.numberOfLeadingZeros(readbackBytes >>> READBACK_BUCKET_SHIFT);
  }
}
