package dev.vyre.policy;

import static dev.vyre.policy.MegakernelDispatchTopology.DenseFrontier;
import static dev.vyre.policy.MegakernelDispatchTopology.FusedDense;
import static dev.vyre.policy.MegakernelDispatchTopology.HybridFrontier;
import static dev.vyre.policy.MegakernelDispatchTopology.MemoryConstrained;
import static dev.vyre.policy.MegakernelDispatchTopology.SparseFrontier;
import static dev.vyre.policy.MegakernelExecutionMode.Interpreter;
import static dev.vyre.policy.MegakernelExecutionMode.Jit;
import static dev.vyre.policy.MegakernelQueuePressure.Balanced;
import static dev.vyre.policy.MegakernelQueuePressure.Light;
import static dev.vyre.policy.MegakernelQueuePressure.Saturated;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * vyre's launch-policy acceptance table (docs/PORTS.md, "Test vectors") and the surprises of docs/CONFORMANCE.md,
 * "Launch policy".
 */
class MegakernelLaunchPolicyTest {

  static final MegakernelLaunchPolicy POLICY = MegakernelLaunchPolicy.standard();

  @BeforeEach
  void freshCache() {
    MegakernelLaunchPolicy.resetLaunchCacheForThread();
  }

  /** One row of vyre's acceptance table: wg, slots, grid, W, hit, P, M, topo, ops, win, age, peak. */
  static MegakernelLaunchRecommendation row(long width, long slots, long grid, long workers, long hit,
      MegakernelQueuePressure pressure, MegakernelExecutionMode mode, MegakernelDispatchTopology topology,
      boolean ops, boolean win, boolean age, long peak, long budget) {
    return new MegakernelLaunchRecommendation(new MegakernelLaunchGeometry(width, slots, grid), workers, hit, pressure,
        mode, topology, ops, win, age, peak, budget);
  }

  static MegakernelLaunchRequest.Builder direct(long queue, long workers, long maxX) {
    return MegakernelLaunchRequest.directBuilder(queue, workers, maxX);
  }

  static MegakernelLaunchRequest.Builder r3() {
    return direct(131072, 256, 256).graphNodeCount(32768).graphEdgeCount(500_000).frontierDensityBps(7500)
        .hotWindowCount(4);
  }

  @Test
  void standardFieldsAreVyres() {
    assertEquals(new MegakernelLaunchPolicy(MegakernelSizingPolicy.standard(), 1024, 2, 4, 8, 4, 4096, 32, 500, 4000,
        8500, 65536, 16), POLICY);
  }

  @Test
  void r1SparseLightQueueDerivesHitCapacity() {
    assertEquals(row(64, 320, 5, 64, 1800, Light, Interpreter, SparseFrontier, false, false, false, 28_800, 0),
        POLICY.recommend(direct(300, 64, 256).expectedHitsPerItem(3).build()));
  }

  @Test
  void r2RequeuesSaturateAndHotOpcodesPromote() {
    assertEquals(row(64, 8192, 64, 64, 16_384, Saturated, Jit, SparseFrontier, true, false, true, 262_144, 0),
        POLICY.recommend(direct(8192, 64, 256).hotOpcodeCount(8).requeueCount(1).maxPriorityAge(64).build()));
  }

  @Test
  void r3DenseLargeHotGraphFuses() {
    assertEquals(row(256, 131_072, 256, 256, 262_144, Balanced, Jit, FusedDense, false, true, false, 4_194_304, 0),
        POLICY.recommend(r3().build()));
  }

  @Test
  void r6MemoryPressureAtThresholdShedsAQuarterOfTheWorkers() {
    MegakernelLaunchRequest request = direct(16384, 128, 256).graphNodeCount(16384).graphEdgeCount(250_000)
        .frontierDensityBps(9000).memoryPressureBps(8500).build();
    assertEquals(row(96, 16_416, 96, 96, 16_384, Balanced, Jit, MemoryConstrained, false, false, false, 262_144, 0),
        POLICY.recommend(request));
  }

  @Test
  void r7FullMemoryPressureHalvesWorkersAndKeepsRequestedHits() {
    MegakernelLaunchRequest request =
        direct(16384, 128, 256).requestedHitCapacity(65536).memoryPressureBps(10_000).build();
    assertEquals(row(64, 16_384, 64, 64, 65_536, Saturated, Jit, MemoryConstrained, false, false, false, 1_048_576, 0),
        POLICY.recommend(request));
  }

  @Test
  void r8PeakAboveBudgetIsDeviceOutOfMemory() {
    BackendException error = assertThrows(BackendException.class, () -> POLICY.recommend(
        direct(1024, 64, 256).expectedHitsPerItem(4).residentDeviceBytes(1024).deviceMemoryBudgetBytes(65536).build()));
    assertEquals(BackendException.Variant.DeviceOutOfMemory, error.variant());
    assertEquals(Map.of("requested", 132_096L, "available", 65_536L), error.fields());
    assertTrue(error.getMessage().endsWith("available.          Fix: reduce buffer sizes or split the dispatch into smaller chunks."));
  }

  @Test
  void r9InferredMemoryPressureConstrainsTheLaunch() {
    MegakernelLaunchRequest request =
        direct(1024, 128, 256).residentDeviceBytes(900_000).deviceMemoryBudgetBytes(1_000_000).build();
    assertEquals(row(85, 1105, 13, 85, 1024, Light, Interpreter, MemoryConstrained, false, false, false, 916_384,
        1_000_000), POLICY.recommend(request));
  }

  @Test
  void r10DensityAtTheDenseThresholdIsDense() {
    MegakernelLaunchRequest request =
        direct(16384, 128, 256).graphNodeCount(16384).graphEdgeCount(250_000).frontierDensityBps(4000).build();
    assertEquals(row(128, 16_384, 128, 128, 32_768, Balanced, Jit, DenseFrontier, false, false, false, 524_288, 0),
        POLICY.recommend(request));
  }

  @Test
  void r11DensityJustAboveSparseIsHybrid() {
    MegakernelLaunchRequest request =
        direct(8192, 128, 256).graphNodeCount(8192).graphEdgeCount(32768).frontierDensityBps(501).build();
    assertEquals(row(128, 8192, 64, 128, 16_384, Balanced, Jit, HybridFrontier, false, false, false, 262_144, 0),
        POLICY.recommend(request));
  }

  @Test
  void r12InferredDensityFuses() {
    MegakernelLaunchRequest request =
        direct(90000, 256, 256).graphNodeCount(100_000).graphEdgeCount(750_000).hotOpcodeCount(8).build();
    assertEquals(row(256, 90_112, 256, 256, 180_000, Balanced, Jit, FusedDense, true, false, false, 2_880_000, 0),
        POLICY.recommend(request));
    assertEquals(9000, POLICY.inferMissingScaleSignals(request).frontierDensityBps());
  }

  @Test
  void r13SparseFrontierScalesWorkersWithDensity() {
    MegakernelLaunchRequest request = direct(100_000, 256, 256).graphNodeCount(1_000_000).graphEdgeCount(4_000_000)
        .frontierDensityBps(100).build();
    assertEquals(row(51, 100_011, 51, 51, 200_000, Saturated, Jit, SparseFrontier, false, false, false, 3_200_000, 0),
        POLICY.recommend(request));
  }

  @Test
  void r14SparseFrontierKeepsAWarpFloor() {
    MegakernelLaunchRequest request = direct(1000, 256, 256).graphNodeCount(1_000_000).graphEdgeCount(4_000_000)
        .frontierDensityBps(1).build();
    assertEquals(row(32, 1024, 32, 32, 2000, Light, Interpreter, SparseFrontier, false, false, false, 32_000, 0),
        POLICY.recommend(request));
  }

  @Test
  void t1TelemetryDerivedRequest() {
    MegakernelLaunchRequest request = direct(4096, 64, 256).graphNodeCount(4).graphEdgeCount(1)
        .frontierDensityBps(2500).hotOpcodeCount(8).requeueCount(1).build();
    assertEquals(row(64, 4096, 64, 64, 8192, Saturated, Jit, HybridFrontier, true, false, true, 131_072, 0),
        POLICY.recommend(request));
  }

  @Test
  void t2TelemetryDerivedRequest() {
    MegakernelLaunchRequest request =
        direct(8, 64, 256).graphNodeCount(8).graphEdgeCount(4).frontierDensityBps(5000).build();
    assertEquals(row(64, 64, 1, 64, 1024, Light, Interpreter, DenseFrontier, false, false, false, 16_384, 0),
        POLICY.recommend(request));
  }

  @Test
  void m1EmptyQueueStillGetsOneWorkgroupAndScratch() {
    assertEquals(row(64, 64, 1, 64, 1024, MegakernelQueuePressure.Empty, Interpreter, MegakernelDispatchTopology.Empty,
        false, false, false, 16_384, 0), POLICY.recommend(MegakernelLaunchRequest.direct(0, 64, 256)));
  }

  @Test
  void m2ZeroWorkgroupWidthIsAnError() {
    assertOther("megakernel max_workgroup_size_x must be non-zero. "
        + "Fix: pass live adapter limits instead of a zero limit.", MegakernelLaunchRequest.direct(10, 64, 0));
  }

  @Test
  void m3OccupancyDerivedWorkers() {
    MegakernelLaunchRequest request = direct(1000, 0, 256).maxComputeWorkgroupsPerDimension(65535)
        .maxComputeInvocationsPerWorkgroup(1024).build();
    assertEquals(row(255, 1020, 4, 255, 2000, Light, Interpreter, SparseFrontier, false, false, false, 32_000, 0),
        POLICY.recommend(request));
  }

  @Test
  void m4QueueOfTwoWavesIsBalanced() {
    assertEquals(row(64, 128, 2, 64, 1024, Balanced, Interpreter, SparseFrontier, false, false, false, 16_384, 0),
        POLICY.recommend(MegakernelLaunchRequest.direct(128, 64, 256)));
  }

  @Test
  void r4TopologyEvidenceUsesTheInferredRequest() {
    MegakernelLaunchRequest request = r3().residentDeviceBytes(64L << 20).build();
    RecommendationWithEvidence<MegakernelTopologyEvidence> result = POLICY.recommendWithTopologyEvidence(request);
    assertEquals(row(256, 131_072, 256, 256, 262_144, Balanced, Jit, FusedDense, false, true, false, 71_303_168, 0),
        result.recommendation());
    assertEquals(new MegakernelTopologyEvidence(1, Balanced, 7500, 7500, FusedDense,
        MegakernelGraphBlasSwitchClass.Dense, 67_108_864, 71_303_168, true), result.evidence());
    assertTrue(result.evidence().isComplete());
  }

  @Test
  void r5PromotionEvidenceForHotWindows() {
    RecommendationWithEvidence<MegakernelPromotionEvidence> result =
        POLICY.recommendWithPromotionEvidence(direct(1024, 64, 256).hotWindowCount(4).build());
    assertEquals(row(64, 1024, 16, 64, 2048, Balanced, Jit, SparseFrontier, false, true, false, 32_768, 0),
        result.recommendation());
    assertEquals(new MegakernelPromotionEvidence(1, 1024, 4096, 0, 8, 4, 4, Jit, false, true,
        MegakernelPromotionRoute.WindowJit, true, true), result.evidence());
    assertTrue(result.evidence().isComplete());
  }

  @Test
  void evidenceCachesUnderTheInferredRequest() {
    MegakernelLaunchRequest request = r3().frontierDensityBps(0).build();
    POLICY.recommendWithTopologyEvidence(request);
    POLICY.recommend(POLICY.inferMissingScaleSignals(request));
    assertEquals(new MegakernelLaunchCacheStats(1, 1, 1), MegakernelLaunchPolicy.launchCacheStats());
    POLICY.recommend(request);
    assertEquals(new MegakernelLaunchCacheStats(2, 1, 2), MegakernelLaunchPolicy.launchCacheStats());
  }

  @Test
  void cacheCountsHitsAndReturnsTheSameRecommendation() {
    assertEquals(new MegakernelLaunchCacheStats(0, 0, 0), MegakernelLaunchPolicy.launchCacheStats());
    MegakernelLaunchRecommendation first = POLICY.recommend(MegakernelLaunchRequest.direct(512, 64, 256));
    assertEquals(new MegakernelLaunchCacheStats(1, 0, 1), MegakernelLaunchPolicy.launchCacheStats());
    assertEquals(first, POLICY.recommend(MegakernelLaunchRequest.direct(512, 64, 256)));
    assertEquals(new MegakernelLaunchCacheStats(1, 1, 1), MegakernelLaunchPolicy.launchCacheStats());
  }

  @Test
  void previousTopologyCallsBypassTheCache() {
    POLICY.recommendWithPreviousTopology(MegakernelLaunchRequest.direct(512, 64, 256), SparseFrontier);
    assertEquals(new MegakernelLaunchCacheStats(0, 0, 0), MegakernelLaunchPolicy.launchCacheStats());
  }

  @Test
  void errorsCountAMissButAreNotCached() {
    MegakernelLaunchRequest request = MegakernelLaunchRequest.direct(10, 64, 0);
    assertThrows(BackendException.class, () -> POLICY.recommend(request));
    assertThrows(BackendException.class, () -> POLICY.recommend(request));
    assertEquals(new MegakernelLaunchCacheStats(0, 0, 2), MegakernelLaunchPolicy.launchCacheStats());
  }

  @Test
  void directWithZeroWorkersFailsTheWorkgroupsLimit() {
    assertOther("megakernel max_compute_workgroups_per_dimension must be non-zero. "
        + "Fix: pass live adapter limits instead of a zero limit.", MegakernelLaunchRequest.direct(10, 0, 256));
  }

  @Test
  void zeroInvocationsLimitFailsThird() {
    assertOther("megakernel max_compute_invocations_per_workgroup must be non-zero. "
        + "Fix: pass live adapter limits instead of a zero limit.",
        direct(10, 64, 256).maxComputeInvocationsPerWorkgroup(0).build());
  }

  @Test
  void limitErrorsComeBeforeHitCapacityOverflowAndMemory() {
    MegakernelLaunchRequest request = direct(Unsigned.U32_MAX, 64, 0).expectedHitsPerItem(Unsigned.U32_MAX)
        .deviceMemoryBudgetBytes(1).build();
    assertOther("megakernel max_workgroup_size_x must be non-zero. "
        + "Fix: pass live adapter limits instead of a zero limit.", request);
  }

  @Test
  void hitCapacityOverflowIsAnError() {
    assertOther("megakernel sparse-hit capacity overflowed u32. "
        + "Fix: lower queue length, expected_hits_per_item, or hit_capacity_multiplier.",
        direct(1L << 31, 64, 256).build());
  }

  @Test
  void peakOverflowIsAnError() {
    assertOther("megakernel peak resident byte estimate overflowed u64. "
        + "Fix: reduce resident buffers or scratch capacity.",
        direct(1, 64, 256).residentDeviceBytes(Unsigned.U64_MAX).build());
  }

  @Test
  void peakEqualToBudgetFitsAndAnEmptyQueueCanStillRunOutOfMemory() {
    assertEquals(16_384, POLICY.recommend(direct(1, 64, 256).deviceMemoryBudgetBytes(16_384).build())
        .estimatedPeakDeviceBytes());
    BackendException error = assertThrows(BackendException.class,
        () -> POLICY.recommend(direct(0, 64, 256).deviceMemoryBudgetBytes(16_383).build()));
    assertEquals(BackendException.Variant.DeviceOutOfMemory, error.variant());
  }

  @Test
  void requestedHitCapacityBelowTheMinimumIsKept() {
    assertEquals(7, POLICY.recommend(direct(300, 64, 256).requestedHitCapacity(7).build()).hitCapacity());
  }

  @Test
  void memoryPressureInferenceIsExactBeyond64Bits() {
    MegakernelLaunchRequest request = direct(1, 64, 256).residentDeviceBytes(1L << 62)
        .deviceMemoryBudgetBytes(Unsigned.U64_MAX).build();
    // floor(2^62 * 10000 / (2^64 - 1)) = 2500, which needs 128-bit intermediate arithmetic.
    assertEquals(2500, POLICY.inferMissingScaleSignals(request).memoryPressureBps());
    MegakernelLaunchRequest tiny = direct(1, 64, 256).residentDeviceBytes(1).deviceMemoryBudgetBytes(1_000_000).build();
    assertEquals(0, POLICY.inferMissingScaleSignals(tiny).memoryPressureBps());
  }

  @Test
  void autotunePicksTheFirstCheapestCandidate() {
    assertEquals(4, POLICY.autotuneHitCapacityMultiplier(new long[] {1, 2, 4, 8}, new double[] {9, 5, 1, 3}));
    assertEquals(64, POLICY.autotuneWorkgroupSize(new long[] {32, 64, 128}, new double[] {7, 2, 3}, 32));
    assertEquals(2, POLICY.autotuneHitCapacityMultiplier(new long[0], new double[] {1}));
    assertEquals(96, POLICY.autotuneWorkgroupSize(new long[] {32}, new double[0], 96));
    assertEquals(32, POLICY.autotuneWorkgroupSize(new long[] {32, 64}, new double[] {1}, 96));
  }

  private static void assertOther(String message, MegakernelLaunchRequest request) {
    BackendException error = assertThrows(BackendException.class, () -> POLICY.recommend(request));
    assertEquals(BackendException.Variant.Other, error.variant());
    assertEquals(message, error.getMessage());
  }
}
