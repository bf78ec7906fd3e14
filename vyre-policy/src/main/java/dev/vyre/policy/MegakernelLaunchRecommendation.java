package dev.vyre.policy;

/**
 * What the launch policy decided for one request; runtime dispatchers and batch builders consume
 * it. u32 values are held in a {@code long}, u64 values as {@code long} bit patterns.
 *
 * @param geometry padded launch geometry for the ring protocol
 * @param workerGroups worker workgroups selected for the dispatch
 * @param hitCapacity sparse-hit capacity selected for the dispatch
 * @param pressure queue pressure classification
 * @param executionMode interpreter or JIT route selected from telemetry
 * @param topology dispatch topology selected from graph shape, frontier density and memory pressure
 * @param promoteHotOpcodes true when hot opcode counters justify fused opcode promotion
 * @param promoteHotWindows true when ticketed route windows justify fused window promotion
 * @param agePriorityWork true when aged or requeued priority work should be lifted on the next publish
 * @param estimatedPeakDeviceBytes (u64) estimated peak device bytes of the resident launch plan
 * @param deviceMemoryBudgetBytes (u64) hard device-memory budget applied; zero means unbounded
 */
public record MegakernelLaunchRecommendation(
    MegakernelLaunchGeometry geometry,
    long workerGroups,
    long hitCapacity,
    MegakernelQueuePressure pressure,
    MegakernelExecutionMode executionMode,
    MegakernelDispatchTopology topology,
    boolean promoteHotOpcodes,
    boolean promoteHotWindows,
    boolean agePriorityWork,
    long estimatedPeakDeviceBytes,
    long deviceMemoryBudgetBytes) {}
