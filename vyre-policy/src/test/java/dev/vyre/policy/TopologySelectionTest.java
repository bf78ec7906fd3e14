package dev.vyre.policy;

import static dev.vyre.policy.MegakernelDispatchTopology.DenseFrontier;
import static dev.vyre.policy.MegakernelDispatchTopology.Empty;
import static dev.vyre.policy.MegakernelDispatchTopology.FusedDense;
import static dev.vyre.policy.MegakernelDispatchTopology.HybridFrontier;
import static dev.vyre.policy.MegakernelDispatchTopology.MemoryConstrained;
import static dev.vyre.policy.MegakernelDispatchTopology.SparseFrontier;
import static dev.vyre.policy.MegakernelExecutionMode.Jit;
import static dev.vyre.policy.MegakernelLaunchPolicyTest.POLICY;
import static dev.vyre.policy.MegakernelLaunchPolicyTest.direct;
import static dev.vyre.policy.MegakernelLaunchPolicyTest.r3;
import static dev.vyre.policy.MegakernelLaunchPolicyTest.row;
import static dev.vyre.policy.MegakernelQueuePressure.Balanced;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.driver.error.BackendException;
import org.junit.jupiter.api.Test;

/** Raw topology rules and vyre's hysteresis vectors H1..H7 (docs/PORTS.md, "Test vectors"). */
class TopologySelectionTest {

  private static MegakernelLaunchRequest.Builder h1() {
    return direct(8192, 128, 256).graphNodeCount(100_000).graphEdgeCount(250_000).frontierDensityBps(625);
  }

  private static MegakernelLaunchRequest.Builder h4() {
    return direct(16384, 128, 256).graphNodeCount(16384).graphEdgeCount(250_000).frontierDensityBps(4125);
  }

  private static MegakernelDispatchTopology held(MegakernelLaunchRequest.Builder request, MegakernelDispatchTopology previous) {
    return POLICY.recommendWithPreviousTopology(request.build(), previous).topology();
  }

  @Test
  void h1SparseIsHeldJustAboveTheSparseThreshold() {
    MegakernelLaunchRecommendation stateless = POLICY.recommend(h1().build());
    assertEquals(row(128, 8192, 64, 128, 16_384, Balanced, Jit, HybridFrontier, false, false, false, 262_144, 0),
        stateless);
    MegakernelLaunchRecommendation heldSparse = POLICY.recommendWithPreviousTopology(h1().build(), SparseFrontier);
    assertEquals(row(128, 8192, 64, 128, 16_384, Balanced, Jit, SparseFrontier, false, false, false, 262_144, 0),
        heldSparse);
  }

  @Test
  void h2SparseIsReleasedOutsideTheBand() {
    assertEquals(HybridFrontier, held(h1().frontierDensityBps(800), SparseFrontier));
  }

  @Test
  void h3HybridIsHeldJustBelowTheSparseThreshold() {
    assertEquals(HybridFrontier, held(h1().frontierDensityBps(375), HybridFrontier));
  }

  @Test
  void h4HybridIsHeldJustAboveTheDenseThreshold() {
    assertEquals(row(128, 16_384, 128, 128, 32_768, Balanced, Jit, HybridFrontier, false, false, false, 524_288, 0),
        POLICY.recommendWithPreviousTopology(h4().build(), HybridFrontier));
  }

  @Test
  void h5DenseIsHeldJustBelowTheDenseThreshold() {
    assertEquals(HybridFrontier, POLICY.recommend(h4().frontierDensityBps(3875).build()).topology());
    assertEquals(DenseFrontier, held(h4().frontierDensityBps(3875), DenseFrontier));
  }

  @Test
  void h6FusedDenseIsHeldJustBelowTheDenseThreshold() {
    assertEquals(row(256, 131_072, 256, 256, 262_144, Balanced, Jit, FusedDense, false, true, false, 4_194_304, 0),
        POLICY.recommendWithPreviousTopology(r3().frontierDensityBps(3875).build(), FusedDense));
  }

  @Test
  void holdingFusedDenseDoesNotNeedGraphNodes() {
    assertEquals(FusedDense, held(r3().frontierDensityBps(3875).graphNodeCount(0), FusedDense));
    assertEquals(HybridFrontier, held(r3().frontierDensityBps(3875).hotWindowCount(0), FusedDense));
  }

  @Test
  void h7MemoryConstrainedIsHeldBelowThePressureThresholdAndShedsAQuarter() {
    MegakernelLaunchRequest.Builder request = direct(16384, 128, 256).graphNodeCount(16384).graphEdgeCount(250_000)
        .frontierDensityBps(9000).memoryPressureBps(8375);
    assertEquals(row(128, 16_384, 128, 128, 32_768, Balanced, Jit, DenseFrontier, false, false, false, 524_288, 0),
        POLICY.recommend(request.build()));
    assertEquals(row(96, 16_416, 96, 96, 32_768, Balanced, Jit, MemoryConstrained, false, false, false, 524_288, 0),
        POLICY.recommendWithPreviousTopology(request.build(), MemoryConstrained));
    assertEquals(DenseFrontier, held(request.memoryPressureBps(8249), MemoryConstrained));
  }

  @Test
  void bandEdgesAreInclusive() {
    assertEquals(SparseFrontier, held(h1().frontierDensityBps(750), SparseFrontier));
    assertEquals(HybridFrontier, held(h1().frontierDensityBps(751), SparseFrontier));
    assertEquals(HybridFrontier, held(h1().frontierDensityBps(250), HybridFrontier));
    assertEquals(SparseFrontier, held(h1().frontierDensityBps(249), HybridFrontier));
    assertEquals(HybridFrontier, held(h4().frontierDensityBps(4250), HybridFrontier));
    assertEquals(DenseFrontier, held(h4().frontierDensityBps(4251), HybridFrontier));
    assertEquals(DenseFrontier, held(h4().frontierDensityBps(3750), DenseFrontier));
    assertEquals(HybridFrontier, held(h4().frontierDensityBps(3749), DenseFrontier));
  }

  @Test
  void emptyQueuesAndRawMemoryPressureIgnoreThePreviousTopology() {
    assertEquals(Empty, held(h1().queueLen(0), SparseFrontier));
    assertEquals(MemoryConstrained, held(h1().memoryPressureBps(8500), SparseFrontier));
    assertEquals(HybridFrontier, held(h1(), Empty));
  }

  @Test
  void withoutGraphTelemetryANonEmptyQueueIsSparse() {
    assertEquals(SparseFrontier, POLICY.recommend(direct(100_000, 64, 256).build()).topology());
  }

  @Test
  void aBandThatUnderflowsU16FailsOnlyWhenARuleReachesIt() {
    MegakernelLaunchPolicy lowSparse = new MegakernelLaunchPolicy(MegakernelSizingPolicy.standard(), 1024, 2, 4, 8, 4,
        4096, 32, 100, 4000, 8500, 65536, 16);
    assertEquals(HybridFrontier,
        lowSparse.recommendWithPreviousTopology(h1().build(), HybridFrontier).topology());
    BackendException error = assertThrows(BackendException.class,
        () -> lowSparse.recommendWithPreviousTopology(h1().frontierDensityBps(50).build(), HybridFrontier));
    assertEquals("megakernel topology hysteresis lower bound underflowed u16. "
        + "Fix: lower hysteresis or raise topology threshold.", error.getMessage());
  }
}
