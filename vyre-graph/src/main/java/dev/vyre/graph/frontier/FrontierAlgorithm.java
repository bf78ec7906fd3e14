package dev.vyre.graph.frontier;

/** What a frontier engine's run computes. */
public enum FrontierAlgorithm {
  /**
   * Breadth-first search from one source: the depth of every vertex (-1 when unreachable, the
   * source 0) and a parent in a BFS tree (-1 when unreachable, the source its own parent). Each
   * level is one wave of the engine.
   */
  BFS,
  /**
   * Connected components (weak ones on a directed graph) by label propagation: every vertex ends
   * with the smallest vertex id of its component. Each level is one wave of the engine; a level's
   * frontier is the set of vertices whose label fell in the level before.
   */
  LABEL_PROPAGATION,
  /**
   * Connected components (weak ones on a directed graph) by Afforest: union-find linking of
   * sampled neighbours, then of every edge outside the most frequent component ({@link Afforest}).
   * Every vertex ends with the smallest vertex id of its component, as with label propagation.
   */
  AFFOREST;

  /** Whether the run's values are component labels (rather than BFS depths). */
  public boolean labelsComponents() {
    return this != BFS;
  }
}
