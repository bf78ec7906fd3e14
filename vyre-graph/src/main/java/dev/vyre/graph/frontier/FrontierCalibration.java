package dev.vyre.graph.frontier;

/**
 * What the engine measured on its own workers before the first level, the three costs behind each
 * level's decision (see {@link FrontierPolicy}).
 *
 * @param barrierNanos what advancing one level costs without any work: the mean of several empty
 *     grid-wide barriers (CUDA) or worker barriers (reference)
 * @param edgeNanos what one edge of a level's work costs spread over all workers: the time of one
 *     parallel pass reading a probe of the graph's edges and the state of their targets, less one
 *     barrier, divided by the edges probed
 * @param fusedEdgeNanos what one edge costs on the one worker that runs fused levels (CUDA block 0,
 *     reference worker 0) while the others wait: the same kind of pass over a smaller probe, run by
 *     that worker alone, per edge probed
 */
public record FrontierCalibration(double barrierNanos, double edgeNanos, double fusedEdgeNanos) {}
