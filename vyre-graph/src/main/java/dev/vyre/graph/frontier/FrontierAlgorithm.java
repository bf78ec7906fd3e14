package dev.vyre.graph.frontier;

/** What a frontier run computes; each level of either is one wave of the engine. */
public enum FrontierAlgorithm {
  /**
   * Breadth-first search from one source: the depth of every vertex (-1 when unreachable, the
   * source 0) and a parent in a BFS tree (-1 when unreachable, the source its own parent).
   */
  BFS,
  /**
   * Connected components (weak ones on a directed graph) by label propagation: every vertex ends
   * with the smallest vertex id of its component. A level's frontier is the set of vertices whose
   * label fell in the level before.
   */
  COMPONENTS
}
