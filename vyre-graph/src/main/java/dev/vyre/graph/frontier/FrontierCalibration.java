package dev.vyre.graph.frontier;

/**
 * What the engine measured on its own workers before the first level, the two costs behind each
 * level's decision (see {@link FrontierPolicy}).
 *
 * @param barrierNanos what advancing one level costs without any work: the mean of several empty
 *     grid-wide barriers (CUDA) or worker barriers (reference)
 * @param edgeNanos what one edge of a level's work costs spread over all workers: the time of one
 *     parallel pass reading a probe of the graph's edges and the state of their targets, less one
 *     barrier, divided by the edges probed
 */
public record FrontierCalibration(double barrierNanos, double edgeNanos) {}
