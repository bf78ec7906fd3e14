package dev.vyre.policy;

/**
 * Workload telemetry a queue configuration passes to the launch policy; all zero means no hints.
 * u32 values are held in a {@code long}, u16 basis points in an {@code int}, u64 values as
 * {@code long} bit patterns.
 */
public record MegakernelWorkloadHints(
    long hotOpcodeCount,
    long hotWindowCount,
    long graphNodeCount,
    long graphEdgeCount,
    int frontierDensityBps,
    int memoryPressureBps,
    long residentDeviceBytes,
    long deviceMemoryBudgetBytes) {

  /** No hints. */
  public static final MegakernelWorkloadHints NONE = new MegakernelWorkloadHints(0, 0, 0, 0, 0, 0, 0, 0);

  public MegakernelWorkloadHints {
    RangeCheck.u32("hot_opcode_count", hotOpcodeCount);
    RangeCheck.u32("hot_window_count", hotWindowCount);
    RangeCheck.u32("graph_node_count", graphNodeCount);
    RangeCheck.u32("graph_edge_count", graphEdgeCount);
    RangeCheck.u16("frontier_density_bps", frontierDensityBps);
    RangeCheck.u16("memory_pressure_bps", memoryPressureBps);
  }
}
