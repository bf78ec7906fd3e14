package dev.vyre.graph.frontier;

import dev.vyre.driver.planner.MegakernelTopologyDecision;

/**
 * One level of a frontier run: its input frontier, how it ran and how long it took.
 *
 * @param level 0 for the first level (BFS: the source alone; components: every vertex)
 * @param frontierVertices vertices in the level's input frontier
 * @param frontierEdges edges leaving them (the sum of their out-degrees)
 * @param decision the topology the level ran with and the metrics the selector saw
 * @param nanos the level's duration, barrier included
 */
public record FrontierLevel(int level, long frontierVertices, long frontierEdges, MegakernelTopologyDecision decision,
    long nanos) {}
