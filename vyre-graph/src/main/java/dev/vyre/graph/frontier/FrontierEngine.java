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

  /** Connected components: weak ones on a directed graph. */
  FrontierRun components(CsrGraph graph, FrontierOptions options);

  @Override
  void close();
}
