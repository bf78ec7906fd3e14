package dev.vyre.driver.planner;

import dev.vyre.driver.Accounting;

/**
 * vyre's device-memory planning ({@code plan_megakernel_memory_budget} and
 * {@code plan_megakernel_execution}): prices a topology as
 * {@code nodes·bytesPerNode + edges·bytesPerEdge + frontier + scale(topology, scratch) + output},
 * checks it against the budget, and picks a launchable execution plan, downgrading to sparse
 * when the selected topology does not fit.
 */
public final class MegakernelMemoryPlanner {

  private MegakernelMemoryPlanner() {}

  /**
   * {@code plan_megakernel_memory_budget}.
   *
   * @throws MegakernelMemoryException {@code ByteCountOverflow} naming the overflowing step, or
   *     {@code OverBudget} when the required bytes exceed {@code budgetBytes}
   */
  public static MegakernelMemoryPlan planMegakernelMemoryBudget(MegakernelExecutionTopology topology,
      MegakernelGraphShape graph, MegakernelByteLayout bytes) {
    long graphBytes = residentGraphBytes(graph, bytes.bytesPerNode(), bytes.bytesPerEdge());
    long topologyScratch = topologyScratchBytes(topology, bytes.scratchBytes());
    long required = add(graphBytes, bytes.frontierBytes(), "graph plus frontier bytes");
    required = add(required, topologyScratch, "scratch bytes");
    required = add(required, bytes.outputBytes(), "output bytes");
    long budget = bytes.budgetBytes();
    if (Long.compareUnsigned(required, budget) > 0) {
      throw MegakernelMemoryException.overBudget(topology, required, budget, graph.nodeCount(), graph.edgeCount());
    }
    return new MegakernelMemoryPlan(graphBytes, bytes.frontierBytes(), topologyScratch, bytes.outputBytes(), required,
        budget, MegakernelTopologySelector.pressureBps(required, budget));
  }

  /**
   * {@code plan_megakernel_execution}: plans sparse memory against the real budget (any error is
   * final), selects a topology from the sparse requirement, then plans that topology; a
   * non-sparse topology that is over budget falls back to the sparse plan.
   */
  public static MegakernelExecutionPlan planMegakernelExecution(MegakernelExecutionSample sample,
      MegakernelGraphShape graph, MegakernelByteLayout bytes, double launchOverheadNs, double fusionPressure) {
    MegakernelMemoryPlan sparse = planMegakernelMemoryBudget(MegakernelExecutionTopology.SparseFrontier, graph, bytes);
    MegakernelTopologyDecision decision = MegakernelTopologySelector.selectMegakernelTopology(sample, graph,
        new MegakernelMemoryBudget(sparse.requiredBytes(), bytes.budgetBytes()), launchOverheadNs, fusionPressure);
    try {
      MegakernelMemoryPlan memory = planMegakernelMemoryBudget(decision.topology(), graph, bytes);
      return new MegakernelExecutionPlan(decision.topology(), memory, false, decision);
    } catch (MegakernelMemoryException e) {
      if (e.isOverBudget() && decision.topology() != MegakernelExecutionTopology.SparseFrontier) {
        return new MegakernelExecutionPlan(MegakernelExecutionTopology.SparseFrontier, sparse, true, decision);
      }
      throw e;
    }
  }

  private static long residentGraphBytes(MegakernelGraphShape graph, long bytesPerNode, long bytesPerEdge) {
    long nodeBytes = mul(graph.nodeCount(), bytesPerNode, "node layout bytes");
    long edgeBytes = mul(graph.edgeCount(), bytesPerEdge, "edge layout bytes");
    return add(nodeBytes, edgeBytes, "graph layout bytes");
  }

  /** The scratch a topology needs for {@code base} bytes of per-wave scratch. */
  static long topologyScratchBytes(MegakernelExecutionTopology topology, long base) {
    return switch (topology) {
      case WarpSparseFrontier -> Long.compareUnsigned(base, 32) >= 0 ? base : 32;
      case SparseFrontier -> base;
      case BlockDenseFrontier -> mul(Long.compareUnsigned(base, 1024) >= 0 ? base : 1024, 2,
          "block dense topology scratch bytes");
      case DenseFrontier -> mul(base, 2, "dense topology scratch bytes");
      case HybridFrontier -> mul(base, 3, "hybrid topology scratch bytes");
      case FusedWave -> mul(base, 4, "fused topology scratch bytes");
    };
  }

  private static long add(long a, long b, String field) {
    return Accounting.checkedAddU64(a, b, field, MegakernelMemoryException::byteCountOverflow);
  }

  private static long mul(long a, long b, String field) {
    return Accounting.checkedMulU64(a, b, field, MegakernelMemoryException::byteCountOverflow);
  }
}
