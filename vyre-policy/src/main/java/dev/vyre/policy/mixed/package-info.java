/**
 * vyre's mixed-work protocol: a batch of scan, graph, parser, flow and control units drained under
 * one watchdog budget. Build a {@link dev.vyre.policy.mixed.MixedWorkPlan} of
 * {@link dev.vyre.policy.mixed.MixedWorkUnit}s and ask it for its
 * {@link dev.vyre.policy.mixed.MixedWorkEvidence}, which validates it in vyre's order (docs/PORTS.md,
 * "Mixed work").
 */
package dev.vyre.policy.mixed;
