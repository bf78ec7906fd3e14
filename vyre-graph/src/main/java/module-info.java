/** Graphs for the frontier engine: compressed-sparse-row graphs off-heap, readers, writers, generators. */
module dev.vyre.graph {
  // Only the typed errors are needed now; the runtime (and the megakernel) come with traversal.
  requires transitive dev.vyre.driver;

  exports dev.vyre.graph;
}
