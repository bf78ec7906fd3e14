package dev.vyre.driver.planner;

/**
 * vyre's {@code MegakernelExecutionPlan}: the topology to launch, its validated memory plan, and
 * whether a denser or fused choice was downgraded to sparse to fit the budget. {@code decision}
 * is the topology decision the plan came from (vyre drops it); its
 * {@link MegakernelTopologyDecision#stableExplanation()} says why.
 *
 * @param topology final topology after memory-budget validation
 * @param memory memory plan of the final topology
 * @param downgradedToSparse whether the selected topology did not fit and sparse was used instead
 * @param decision the selection (or cached selection) behind this plan
 */
public record MegakernelExecutionPlan(MegakernelExecutionTopology topology, MegakernelMemoryPlan memory,
    boolean downgradedToSparse, MegakernelTopologyDecision decision) {}
