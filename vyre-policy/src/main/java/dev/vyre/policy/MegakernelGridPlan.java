package dev.vyre.policy;

/** What {@link MegakernelSizingPolicy#calculateOptimalGrid} decides: geometry and worker groups (u32). */
public record MegakernelGridPlan(MegakernelLaunchGeometry geometry, long workerGroups) {}
