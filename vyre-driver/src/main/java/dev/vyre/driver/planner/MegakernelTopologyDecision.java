package dev.vyre.driver.planner;

/**
 * vyre's {@code MegakernelTopologyDecision}: a selected topology with the pressure metrics that
 * caused it.
 *
 * @param topology selected topology
 * @param memoryPressureBps required/budget memory pressure, u32 basis points
 * @param averageDegreeBps edges per node in basis points, u64, not clamped
 * @param launchPressureBps launch overhead over dispatch cost, u32 basis points
 */
public record MegakernelTopologyDecision(MegakernelExecutionTopology topology, long memoryPressureBps,
    long averageDegreeBps, long launchPressureBps) {

  /** This decision with another topology and the same metrics. */
  public MegakernelTopologyDecision withTopology(MegakernelExecutionTopology other) {
    return new MegakernelTopologyDecision(other, memoryPressureBps, averageDegreeBps, launchPressureBps);
  }

  /** vyre's one-line explanation for logs, e.g. {@code megakernel-topology-v1|topology=...|reason=...}. */
  public String stableExplanation() {
    return "megakernel-topology-v1|topology=" + topology.name() + "|memory_pressure_bps=" + memoryPressureBps
        + "|average_degree_bps=" + Long.toUnsignedString(averageDegreeBps) + "|launch_pressure_bps="
        + launchPressureBps + "|reason=" + reasonCode();
  }

  /** Why this topology was chosen, as vyre's reason code. */
  public String reasonCode() {
    return switch (topology) {
      case WarpSparseFrontier -> "ultra_sparse_warp_specialized";
      case SparseFrontier -> memoryPressureBps >= MegakernelTopologySelector.MEMORY_RED_ZONE_BPS
          ? "memory_pressure_sparse_safety" : "low_density_sparse_queue";
      case BlockDenseFrontier -> "high_density_block_specialized";
      case DenseFrontier -> "dense_coalesced_frontier";
      case HybridFrontier -> "transition_band_hybrid";
      case FusedWave -> "launch_and_readback_pressure_fused";
    };
  }
}
