package dev.vyre.graph.frontier;

import dev.vyre.graph.CsrGraph;

/**
 * Runs frontier algorithms on one backend. An engine holds its workers (threads, or a CUDA context
 * and compiled kernels) between runs; close it to give them back. Runs on one engine are serial.
 */
public interface FrontierEngine extends AutoCloseable {

  /** The backend's name, as {@code --backend} spells it. */
  String backend();

  /**
   * Breadth-first search from {@code source}.
   *
   * @throws dev.vyre.driver.error.InputException if {@code source} is not a vertex of the graph
   */
  FrontierRun bfs(CsrGraph graph, int source, FrontierOptions options);

  /**
   * Connected components (weak ones on a directed graph) by Afforest, in phases rather than levels:
   * the engine's fast components. Its options' memory budget applies; it has no topology to force
   * and no per-level launches.
   *
   * @throws dev.vyre.driver.error.InputException if the options force a topology or launch per level
   */
  FrontierRun afforest(CsrGraph graph, FrontierOptions options);

  /** Connected components (weak ones on a directed graph) by label propagation, level by level. */
  FrontierRun labelPropagation(CsrGraph graph, FrontierOptions options);

  @Override
  void close();
}
