/** Graphs and the frontier engine: off-heap CSR graphs, readers, writers, generators, BFS and components. */
module dev.vyre.graph {
  requires transitive dev.vyre.runtime;

  exports dev.vyre.graph;
  exports dev.vyre.graph.frontier;

  uses dev.vyre.graph.frontier.FrontierBackend;
  provides dev.vyre.graph.frontier.FrontierBackend with dev.vyre.graph.reference.ReferenceFrontierBackend;
}
