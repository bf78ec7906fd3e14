package dev.vyre.policy;

import dev.vyre.driver.error.BackendException;

/**
 * Sheds requested worker groups for the two topologies that want fewer: memory-constrained
 * launches keep 75% down to 50% of their workers as pressure rises past the threshold, and
 * sparse frontiers scale workers with density down to a warp floor of 32. A request that derives
 * its workers from occupancy (zero) is never shed.
 */
final class TopologyWorkerShedding {

  private static final int WARP_FLOOR = 32;

  private TopologyWorkerShedding() {}

  /** The requested worker groups after shedding for {@code topology}. */
  static long workersFor(
      MegakernelLaunchPolicy policy, MegakernelLaunchRequest request, MegakernelDispatchTopology topology) {
    long workers = request.requestedWorkerGroups();
    if (topology == MegakernelDispatchTopology.MemoryConstrained && request.memoryPressureBps() != 0 && workers > 1) {
      return memoryConstrained(policy, request.memoryPressureBps(), workers);
    }
    if (topology == MegakernelDispatchTopology.SparseFrontier && request.graphNodeCount() != 0
        && request.frontierDensityBps() != 0 && workers > 1) {
      long sparseSpan = Math.max(policy.sparseFrontierThresholdBps(), 1);
      long density = Math.clamp(request.frontierDensityBps(), 1, sparseSpan);
      long scaled = workers * density / sparseSpan;
      return Math.min(Math.max(scaled, Math.min(workers, WARP_FLOOR)), workers);
    }
    return workers;
  }

  private static long memoryConstrained(MegakernelLaunchPolicy policy, int pressureBps, long workers) {
    int threshold = policy.memoryPressureThresholdBps();
    if (threshold > 10_000) {
      throw BackendException.other("megakernel memory-pressure threshold exceeds 10000 bps. "
          + "Fix: configure threshold in basis points.");
    }
    long pressureSpan = Math.max(10_000 - threshold, 1);
    long overThreshold = Math.min(Math.max(pressureBps - threshold, 0), pressureSpan);
    long shedBps = 2_500 + overThreshold * 2_500 / pressureSpan;
    long keepBps = 10_000 - shedBps;
    return Math.max(workers * keepBps / 10_000, 1);
  }
}
