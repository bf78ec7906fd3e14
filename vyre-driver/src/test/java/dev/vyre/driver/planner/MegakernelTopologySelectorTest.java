package dev.vyre.driver.planner;

import static dev.vyre.driver.planner.MegakernelExecutionTopology.BlockDenseFrontier;
import static dev.vyre.driver.planner.MegakernelExecutionTopology.DenseFrontier;
import static dev.vyre.driver.planner.MegakernelExecutionTopology.FusedWave;
import static dev.vyre.driver.planner.MegakernelExecutionTopology.HybridFrontier;
import static dev.vyre.driver.planner.MegakernelExecutionTopology.SparseFrontier;
import static dev.vyre.driver.planner.MegakernelExecutionTopology.WarpSparseFrontier;
import static dev.vyre.driver.planner.MegakernelTopologySelector.selectMegakernelTopology;
import static dev.vyre.driver.planner.MegakernelTopologySelector.selectMegakernelTopologyStable;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * vyre's vectors C1-C19 (docs/PORTS.md, "Test vectors") and the double-precision threshold edges of docs/CONFORMANCE.md,
 * "Execution planner".
 */
class MegakernelTopologySelectorTest {

  private static final MegakernelGraphShape G = new MegakernelGraphShape(1_000, 4_000);
  private static final MegakernelMemoryBudget M = new MegakernelMemoryBudget(1_000, 10_000);
  private static final long MIB = 1 << 20;

  @Test
  void selectorUsesSparseDenseHybridAndFusedBands() { // C1, C4, C5, C6, C7
    MegakernelTopologyDecision warpSparse = select(sample(0.01, 256), G, M, 100, 0);
    assertEquals(new MegakernelTopologyDecision(WarpSparseFrontier, 1_000, 40_000, 1_000), warpSparse);
    assertEquals("megakernel-topology-v1|topology=WarpSparseFrontier|memory_pressure_bps=1000|average_degree_bps=40000"
        + "|launch_pressure_bps=1000|reason=ultra_sparse_warp_specialized", warpSparse.stableExplanation());
    assertEquals(BlockDenseFrontier, select(sample(0.90, 512), G, M, 100, 0).topology());
    assertEquals(DenseFrontier, select(sample(0.75, 512), G, M, 100, 0).topology());
    assertEquals(HybridFrontier, select(sample(0.35, 512), G, M, 100, 0).topology());
    MegakernelTopologyDecision fused = select(sample(0.50, MIB), G, M, 250, 0.90);
    assertEquals(FusedWave, fused.topology());
    assertEquals(2_500, fused.launchPressureBps());
  }

  @Test
  void degreeAndMemoryPressureOverrideDensity() { // C2, C3, C11
    MegakernelGraphShape denseGraph = new MegakernelGraphShape(1_000, 10_000);
    assertEquals(SparseFrontier, select(sample(0.01, 1_024), denseGraph, M, 100, 0).topology());
    MegakernelTopologyDecision redZone = select(sample(0.95, MIB), denseGraph, new MegakernelMemoryBudget(95, 100), 500, 1.0);
    assertEquals(SparseFrontier, redZone.topology());
    assertEquals(9_500, redZone.memoryPressureBps());
    assertEquals("memory_pressure_sparse_safety", redZone.reasonCode());
    MegakernelTopologyDecision huge = select(sample(0.95, -1L), new MegakernelGraphShape(1L << 60, 1L << 62),
        new MegakernelMemoryBudget(1L << 62, 1L << 63), 250, 0);
    assertEquals(new MegakernelTopologyDecision(BlockDenseFrontier, 5_000, 40_000, 2_500), huge);
  }

  @Test
  void nonFiniteAndZeroInputs() { // C12, C13, C14
    assertEquals(WarpSparseFrontier, select(sample(Double.NaN, 0), G, M, 100, 0).topology());
    MegakernelTopologyDecision freeLaunch = select(new MegakernelExecutionSample(0, 0.5, MIB), G, M, 250, 0.9);
    assertEquals(0, freeLaunch.launchPressureBps());
    assertEquals(HybridFrontier, freeLaunch.topology());
    MegakernelTopologyDecision noNodes = select(sample(0.9, 0), new MegakernelGraphShape(0, 5),
        new MegakernelMemoryBudget(0, 0), 100, 0);
    assertEquals(new MegakernelTopologyDecision(BlockDenseFrontier, 0, -1L, 1_000), noNodes);
    assertEquals("megakernel-topology-v1|topology=BlockDenseFrontier|memory_pressure_bps=0"
        + "|average_degree_bps=18446744073709551615|launch_pressure_bps=1000|reason=high_density_block_specialized",
        noNodes.stableExplanation());
    // Rust's f64::max(NaN, 0.0) is 0.0, so a NaN overhead means no launch pressure.
    assertEquals(0, select(sample(0.5, MIB), G, M, Double.NaN, 0.9).launchPressureBps());
    assertEquals(4_294_967_295L, select(sample(0.5, MIB), G, M, Double.POSITIVE_INFINITY, 0.9).launchPressureBps());
  }

  @Test
  void fusionNeedsMemoryAtMostTheMargin() { // C15, C16
    MegakernelExecutionSample sample = sample(0.5, 4_096);
    assertEquals(FusedWave, select(sample, G, new MegakernelMemoryBudget(8_500, 10_000), 150, 0.7).topology());
    assertEquals(HybridFrontier, select(sample, G, new MegakernelMemoryBudget(8_501, 10_000), 150, 0.7).topology());
  }

  @Test
  void stableSelectorPreventsFlappingNearThresholds() { // C8, C9, C10, C17, C18, C19
    assertEquals(SparseFrontier, stable(sample(0.14, 512), M, 100, 0, SparseFrontier).topology());
    assertEquals(DenseFrontier, stable(sample(0.68, 512), M, 100, 0, DenseFrontier).topology());
    assertEquals(FusedWave, stable(sample(0.50, MIB), M, 130, 0.65, FusedWave).topology());
    assertEquals(HybridFrontier, stable(sample(0.72, 512), M, 100, 0, HybridFrontier).topology());
    assertEquals(HybridFrontier, stable(sample(0.11, 512), M, 100, 0, HybridFrontier).topology());
    assertEquals(SparseFrontier,
        stable(sample(0.5, 512), new MegakernelMemoryBudget(8_800, 10_000), 100, 0, WarpSparseFrontier).topology());
  }

  @Test
  void stableSelectorKeepsTheFreshMetricsAndTheRedZone() {
    MegakernelTopologyDecision held = stable(sample(0.14, 512), M, 100, 0, SparseFrontier);
    MegakernelTopologyDecision fresh = select(sample(0.14, 512), G, M, 100, 0);
    assertEquals(HybridFrontier, fresh.topology());
    assertEquals(fresh.withTopology(SparseFrontier), held);
    MegakernelMemoryBudget redZone = new MegakernelMemoryBudget(9_000, 10_000);
    assertEquals(SparseFrontier, stable(sample(0.9, MIB), redZone, 500, 1.0, FusedWave).topology());
  }

  @Test
  void hysteresisBandsAreTheSameDoubleExpressions() { // docs/CONFORMANCE.md, "Execution planner": 0.70 - 0.025 == 0.6749999999999999
    assertEquals(DenseFrontier, stable(sample(0.6749999999999999, 512), M, 100, 0, DenseFrontier).topology());
    assertEquals(HybridFrontier, stable(sample(0.6749999999999998, 512), M, 100, 0, DenseFrontier).topology());
    assertEquals(SparseFrontier, stable(sample(0.15, 512), M, 100, 0, SparseFrontier).topology());
    assertEquals(WarpSparseFrontier, stable(sample(0.05625, 512), M, 100, 0, WarpSparseFrontier).topology());
    assertEquals(BlockDenseFrontier, stable(sample(0.825, 512), M, 100, 0, BlockDenseFrontier).topology());
  }

  private static MegakernelExecutionSample sample(double density, long readback) {
    return new MegakernelExecutionSample(1_000.0, density, readback);
  }

  private static MegakernelTopologyDecision select(MegakernelExecutionSample sample, MegakernelGraphShape graph,
      MegakernelMemoryBudget memory, double launch, double fusion) {
    return selectMegakernelTopology(sample, graph, memory, launch, fusion);
  }

  private static MegakernelTopologyDecision stable(MegakernelExecutionSample sample, MegakernelMemoryBudget memory,
      double launch, double fusion, MegakernelExecutionTopology previous) {
    return selectMegakernelTopologyStable(sample, G, memory, launch, fusion, previous);
  }
}
