package dev.vyre.cuda.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** vyre's bucket reference table, E3 and E8, and the cache's pressure convention (docs/PORTS.md, "CUDA plan cache"). */
class CudaMegakernelPlanCacheKeyTest {

  static final CudaMegakernelDeviceKey DEVICE = new CudaMegakernelDeviceKey(12, 0, 32, true, true, 1024);

  @Test
  void densityBucketsRoundHalfAwayFromZero() {
    double[] densities = {0.01, 0.1, 0.2, 0.5, 0.52, 0.68, 0.70, 0.90, 0.91, 0.95, 1.0, Double.NaN, 1.5};
    int[] buckets = {0, 2, 3, 8, 8, 10, 11, 14, 14, 14, 15, 0, 15};
    for (int index = 0; index < densities.length; index++) {
      assertEquals(buckets[index], key(densities[index], 0, 0, 0, 0.0).frontierDensityBucket(), "density " + densities[index]);
    }
  }

  @Test
  void readbackBucketsAreBitLengthsOfFourKibChunks() {
    long[] readbacks = {0, 1, 4_095, 4_096, 8_191, 8_192, 1 << 20, -1L};
    int[] buckets = {0, 0, 0, 1, 1, 2, 9, 52};
    for (int index = 0; index < readbacks.length; index++) {
      assertEquals(buckets[index], key(0.5, 0, readbacks[index], 0, 0.0).readbackPressureBucket());
    }
  }

  @Test
  void fusionBucketsTruncateWithoutClampingAboveOne() {
    double[] fusions = {0.0, 0.9, 0.95, 1.5, -1.0, Double.NaN};
    long[] buckets = {0, 9, 9, 15, 0, 0};
    for (int index = 0; index < fusions.length; index++) {
      assertEquals(buckets[index], key(0.5, 0, 0, 0, fusions[index]).fusionPressureBucket());
    }
  }

  @Test
  void memoryBucketsAreNotClampedToTenThousand() { // E8
    long[] pressures = {625, 671, 2_400, 5_000, 9_460, 10_000, 4_294_967_295L};
    long[] buckets = {0, 0, 2, 5, 9, 10, 4_294_967};
    for (int index = 0; index < pressures.length; index++) {
      assertEquals(buckets[index], key(0.5, pressures[index], 0, 0, 0.0).memoryPressureBucket());
    }
    assertEquals(5, key(0.5, CudaMegakernelPlanCacheKey.memoryPressureBps(1L << 62, 1L << 63), 0, 0, 0.0)
        .memoryPressureBucket());
    assertEquals(10, key(0.5, CudaMegakernelPlanCacheKey.memoryPressureBps(1L << 63, 1L << 63), 0, 0, 0.0)
        .memoryPressureBucket());
    assertEquals(9_460, CudaMegakernelPlanCacheKey.memoryPressureBps(15_500, 16_384));
    assertEquals(4_294_967_295L, CudaMegakernelPlanCacheKey.memoryPressureBps(3, 0));
    assertEquals(0, CudaMegakernelPlanCacheKey.memoryPressureBps(0, 0));
    assertEquals(4_294_967_295L, CudaMegakernelPlanCacheKey.memoryPressureBps(1L << 50, 1));
  }

  @Test
  void launchPressureTruncatesAndChecksTheOverheadFirst() {
    assertEquals(2_500, CudaMegakernelPlanCacheKey.launchPressureBps(1_000, 250));
    assertEquals(6_666, CudaMegakernelPlanCacheKey.launchPressureBps(3, 2));
    assertEquals(4_294_967_295L, CudaMegakernelPlanCacheKey.launchPressureBps(0, Double.NaN));
    assertEquals(0, CudaMegakernelPlanCacheKey.launchPressureBps(0, 250));
    assertEquals(0, CudaMegakernelPlanCacheKey.launchPressureBps(Double.NaN, 250));
    assertEquals(0, CudaMegakernelPlanCacheKey.launchPressureBps(1_000, -5));
    assertEquals(2, key(0.5, 0, 0, CudaMegakernelPlanCacheKey.launchPressureBps(1_000, 250), 0.0).launchPressureBucket());
  }

  @Test
  void cacheSeparatesAnalysisFamilyDensityAndDeviceFeatures() { // E3
    CudaMegakernelPlanCacheKey ifds = key(42, CudaMegakernelAnalysisKind.Builtin.Ifds, DEVICE, 0.01);
    assertNotEquals(ifds, key(42, CudaMegakernelAnalysisKind.Builtin.Liveness, DEVICE, 0.01));
    assertNotEquals(ifds, key(42, CudaMegakernelAnalysisKind.Builtin.Ifds, DEVICE, 0.95));
    assertNotEquals(ifds, key(42, CudaMegakernelAnalysisKind.Builtin.Ifds, new CudaMegakernelDeviceKey(12, 1, 32, true,
        true, 1024), 0.01));
    assertEquals(ifds, key(42, CudaMegakernelAnalysisKind.Builtin.Ifds, DEVICE, 0.01));
    assertNotEquals(key(42, new CudaMegakernelAnalysisKind.Custom(7), DEVICE, 0.01),
        key(42, new CudaMegakernelAnalysisKind.Custom(8), DEVICE, 0.01));
  }

  private static CudaMegakernelPlanCacheKey key(long hash, CudaMegakernelAnalysisKind kind,
      CudaMegakernelDeviceKey device, double density) {
    return CudaMegakernelPlanCacheKey.of(new CudaMegakernelPlanIdentity(hash, kind, device), density, 1_000, 0, 0, 0.0);
  }

  private static CudaMegakernelPlanCacheKey key(double density, long memoryBps, long readback, long launchBps,
      double fusion) {
    return CudaMegakernelPlanCacheKey.of(new CudaMegakernelPlanIdentity(1, CudaMegakernelAnalysisKind.Builtin.Dataflow,
        DEVICE), density, memoryBps, readback, launchBps, fusion);
  }
}
