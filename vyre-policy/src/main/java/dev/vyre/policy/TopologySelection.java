package dev.vyre.policy;

import static dev.vyre.policy.MegakernelDispatchTopology.DenseFrontier;
import static dev.vyre.policy.MegakernelDispatchTopology.Empty;
import static dev.vyre.policy.MegakernelDispatchTopology.FusedDense;
import static dev.vyre.policy.MegakernelDispatchTopology.HybridFrontier;
import static dev.vyre.policy.MegakernelDispatchTopology.MemoryConstrained;
import static dev.vyre.policy.MegakernelDispatchTopology.SparseFrontier;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;

/**
 * Chooses the dispatch topology from the effective request, and holds the previous topology
 * inside a 250 bps hysteresis band so borderline telemetry does not flip kernel variants.
 */
final class TopologySelection {

  static final int FRONTIER_TOPOLOGY_HYSTERESIS_BPS = 250;
  static final int MEMORY_TOPOLOGY_HYSTERESIS_BPS = 250;

  private TopologySelection() {}

  /**
   * The stateless topology. Without graph telemetry the density stays 0, so any non-empty queue
   * below the memory threshold is SparseFrontier.
   */
  static MegakernelDispatchTopology raw(
      MegakernelLaunchPolicy policy, MegakernelLaunchRequest request, boolean promoteHotWork) {
    if (request.queueLen() == 0) {
      return Empty;
    }
    if (request.memoryPressureBps() >= policy.memoryPressureThresholdBps()) {
      return MemoryConstrained;
    }
    if (request.frontierDensityBps() <= policy.sparseFrontierThresholdBps()) {
      return SparseFrontier;
    }
    boolean dense = request.frontierDensityBps() >= policy.denseFrontierThresholdBps();
    boolean graphIsLarge = request.graphNodeCount() > 0 && request.graphEdgeCount() >= policy.fusionEdgeThreshold();
    if (dense && graphIsLarge && promoteHotWork) {
      return FusedDense;
    }
    return dense ? DenseFrontier : HybridFrontier;
  }

  /**
   * The topology after hysteresis against {@code previous} (null: none). The band bounds are
   * computed only when a rule reaches them, as vyre's match guards do, so a custom policy whose
   * band under- or overflows u16 fails at the same point.
   */
  static MegakernelDispatchTopology stabilize(
      MegakernelLaunchPolicy policy,
      MegakernelDispatchTopology raw,
      MegakernelLaunchRequest request,
      MegakernelDispatchTopology previous,
      boolean promoteHotWork) {
    if (raw == Empty || raw == MemoryConstrained || previous == null) {
      return raw;
    }
    int density = request.frontierDensityBps();
    if (previous == MemoryConstrained
        && request.memoryPressureBps() >= below(policy.memoryPressureThresholdBps(), MEMORY_TOPOLOGY_HYSTERESIS_BPS)) {
      return MemoryConstrained;
    }
    boolean hold = switch (previous) {
      case SparseFrontier -> raw != SparseFrontier && density <= above(policy.sparseFrontierThresholdBps());
      case HybridFrontier -> raw == SparseFrontier
          ? density >= below(policy.sparseFrontierThresholdBps())
          : (raw == DenseFrontier || raw == FusedDense) && density <= above(policy.denseFrontierThresholdBps());
      case DenseFrontier -> raw == HybridFrontier && density >= below(policy.denseFrontierThresholdBps());
      // Unlike the raw rule, holding FusedDense does not ask for graph nodes.
      case FusedDense -> raw == HybridFrontier && density >= below(policy.denseFrontierThresholdBps())
          && request.graphEdgeCount() >= policy.fusionEdgeThreshold() && promoteHotWork;
      case Empty, MemoryConstrained -> false;
    };
    return hold ? previous : raw;
  }

  private static int above(int threshold) {
    int bound = threshold + FRONTIER_TOPOLOGY_HYSTERESIS_BPS;
    if (bound > Unsigned.U16_MAX) {
      throw BackendException.other("megakernel topology hysteresis upper bound overflowed u16. "
          + "Fix: lower topology threshold or hysteresis.");
    }
    return bound;
  }

  private static int below(int threshold) {
    return below(threshold, FRONTIER_TOPOLOGY_HYSTERESIS_BPS);
  }

  private static int below(int threshold, int hysteresis) {
    if (threshold < hysteresis) {
      throw BackendException.other("megakernel topology hysteresis lower bound underflowed u16. "
          + "Fix: lower hysteresis or raise topology threshold.");
    }
    return threshold - hysteresis;
  }
}
