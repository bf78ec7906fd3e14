package dev.vyre.graph.frontier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.vyre.driver.planner.MegakernelExecutionTopology;
import java.util.EnumSet;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Fusion priced by what it saves: a level fuses when running it on one worker costs at most 0.3 of
 * what it costs on all of them with their barrier (fusion pressure, the share saved, at least 0.7),
 * and the barrier is still at least 0.15 of that cost (launch pressure).
 */
class FrontierPolicyTest {

  private static final MegakernelExecutionTopology FUSED = MegakernelExecutionTopology.FusedWave;
  private static final int VERTICES = 1 << 20;

  /** A policy with everything fitting, low memory pressure and a large readback, so only the costs decide fusing. */
  private static FrontierPolicy policy(double barrier, double edge, double fusedEdge) {
    FrontierResidency residency = new FrontierResidency(FrontierResidency.Placement.RESIDENT, null,
        EnumSet.allOf(MegakernelExecutionTopology.class), 1, 1L << 30, 0);
    return new FrontierPolicy(VERTICES, 8L * VERTICES, residency, 8L * VERTICES,
        new FrontierCalibration(barrier, edge, fusedEdge), Optional.empty());
  }

  private static MegakernelExecutionTopology decide(FrontierPolicy policy, long frontierEdges,
      MegakernelExecutionTopology previous) {
    return policy.decide(frontierEdges / 8, frontierEdges, previous).topology();
  }

  @Test
  void aSmallLevelThatOneWorkerRunsCheaplyFuses() {
    // Dispatch cost 1000 + 100 x 1 = 1100; one worker's 100 x 0.5 = 50 leaves 1050 / 1100 saved.
    assertEquals(FUSED, decide(policy(1000, 1, 0.5), 100, null));
  }

  @Test
  void aLevelFusesOnlyWhileOneWorkerRunsItInAtMostThreeTenthsOfItsDispatchCost() {
    // Dispatch cost 1000 + 1000 x 1 = 2000, launch pressure 5000 bps.
    assertEquals(FUSED, decide(policy(1000, 1, 0.5), 1000, null));  // fused 500: saves 0.75
    assertEquals(FUSED, decide(policy(1000, 1, 0.6), 1000, null));  // fused 600: saves exactly 0.7
    assertNotEquals(FUSED, decide(policy(1000, 1, 0.61), 1000, null));  // fused 610: saves 0.695
    assertNotEquals(FUSED, decide(policy(1000, 1, 4), 1000, null));  // fused 4000: saves nothing
  }

  @Test
  void aFusedPhaseHoldsWhileFusingStillSavesSixTenths() {
    // Dispatch cost 2000; fused 700 saves 0.65, inside the hold band: held after FusedWave only.
    FrontierPolicy held = policy(1000, 1, 0.7);
    assertNotEquals(FUSED, decide(held, 1000, null));
    assertNotEquals(FUSED, decide(held, 1000, MegakernelExecutionTopology.SparseFrontier));
    assertEquals(FUSED, decide(held, 1000, FUSED));
    // Fused 800 saves exactly 0.6, the band's edge; fused 900 saves 0.55, below it.
    assertEquals(FUSED, decide(policy(1000, 1, 0.8), 1000, FUSED));
    assertNotEquals(FUSED, decide(policy(1000, 1, 0.9), 1000, FUSED));
  }

  @Test
  void aWideLevelThatTheBarrierDominatesOnTheGridDoesNotFuseWhenOneWorkerIsSlowerThanTheBarrier() {
    // On all workers 50,000 edges cost a quarter of the barrier (launch pressure 8000 bps), but one
    // worker needs four times the grid's whole time for them.
    FrontierPolicy policy = policy(2000, 0.01, 0.2);
    assertNotEquals(FUSED, decide(policy, 50_000, null));
    assertNotEquals(FUSED, decide(policy, 50_000, FUSED));
    assertEquals(FUSED, decide(policy, 1000, null));
  }

  @Test
  void launchPressureStillGatesFusingHoweverCheapOneWorkerIs() {
    // Dispatch cost 1000 + 10,000 x 1: the barrier is 0.09 of it, below launch pressure's 0.15.
    assertNotEquals(FUSED, decide(policy(1000, 1, 0), 10_000, null));
    // A free barrier: no launch pressure at all.
    assertNotEquals(FUSED, decide(policy(0, 1, 0), 100, null));
  }

  @Test
  void aDispatchCostOfZeroOrLessHasNoFusionPressure() {
    assertNotEquals(FUSED, decide(policy(0, 0, 0), 100, null));
    assertNotEquals(FUSED, decide(policy(-5, 0, 0), 100, FUSED));
    assertNotEquals(FUSED, decide(policy(Double.NaN, 1, 0), 100, null));
  }
}
