/** Graphs and the frontier engine: off-heap CSR graphs, readers, writers, generators, BFS and components. */
module dev.vyre.graph {
  requires transitive dev.vyre.runtime;
  // CsrGraph reads the JVM's direct memory limit (com.sun.management.HotSpotDiagnosticMXBean).
  requires jdk.management;

  exports dev.vyre.graph;
  exports dev.vyre.graph.frontier;

  uses dev.vyre.graph.frontier.FrontierBackend;
  provides dev.vyre.graph.frontier.FrontierBackend with dev.vyre.graph.reference.ReferenceFrontierBackend;
}
