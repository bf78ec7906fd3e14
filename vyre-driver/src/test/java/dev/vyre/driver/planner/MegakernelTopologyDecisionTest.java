package dev.vyre.driver.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Reason codes and the stable explanation line (docs/PORTS.md, "Topology and execution planning"). */
class MegakernelTopologyDecisionTest {

  @Test
  void reasonCodesFollowTheTopologyAndTheRedZone() {
    assertEquals("ultra_sparse_warp_specialized", decision(MegakernelExecutionTopology.WarpSparseFrontier, 0).reasonCode());
    assertEquals("low_density_sparse_queue", decision(MegakernelExecutionTopology.SparseFrontier, 8_999).reasonCode());
    assertEquals("memory_pressure_sparse_safety", decision(MegakernelExecutionTopology.SparseFrontier, 9_000).reasonCode());
    assertEquals("high_density_block_specialized", decision(MegakernelExecutionTopology.BlockDenseFrontier, 0).reasonCode());
    assertEquals("dense_coalesced_frontier", decision(MegakernelExecutionTopology.DenseFrontier, 0).reasonCode());
    assertEquals("transition_band_hybrid", decision(MegakernelExecutionTopology.HybridFrontier, 0).reasonCode());
    assertEquals("launch_and_readback_pressure_fused", decision(MegakernelExecutionTopology.FusedWave, 0).reasonCode());
  }

  @Test
  void explanationNamesTheVariantAndMetrics() {
    assertEquals("megakernel-topology-v1|topology=FusedWave|memory_pressure_bps=12|average_degree_bps=20000"
        + "|launch_pressure_bps=2000|reason=launch_and_readback_pressure_fused",
        decision(MegakernelExecutionTopology.FusedWave, 12).stableExplanation());
  }

  private static MegakernelTopologyDecision decision(MegakernelExecutionTopology topology, long memory) {
    return new MegakernelTopologyDecision(topology, memory, 20_000, 2_000);
  }
}
