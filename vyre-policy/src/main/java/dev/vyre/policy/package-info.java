/**
 * Exact ports of vyre's launch and sizing policy. Start with
 * {@link dev.vyre.policy.MegakernelLaunchPolicy#standard()}, whose {@code recommend} turns a
 * {@link dev.vyre.policy.MegakernelLaunchRequest} into a {@link dev.vyre.policy.MegakernelLaunchRecommendation}
 * (geometry, workers, hit capacity, topology, interpreter or JIT); {@link dev.vyre.policy.MegakernelSizingPolicy}
 * computes grids, {@link dev.vyre.policy.MegakernelQueueConfig} builds requests from a queue's settings,
 * and the priority helpers ({@link dev.vyre.policy.PriorityRequeueAccounting},
 * {@link dev.vyre.policy.PriorityScanProbe}) and {@link dev.vyre.policy.AutomataWorklistPolicy} come
 * with them. docs/PORTS.md, "Launch policy", and docs/CONFORMANCE.md, "Launch policy", give the rules.
 */
package dev.vyre.policy;
