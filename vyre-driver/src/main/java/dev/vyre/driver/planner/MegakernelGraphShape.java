package dev.vyre.driver.planner;

/**
 * vyre's {@code MegakernelGraphShape}: the static graph a wave runs over.
 *
 * @param nodeCount logical node count, unsigned
 * @param edgeCount logical edge count, unsigned
 */
public record MegakernelGraphShape(long nodeCount, long edgeCount) {}
