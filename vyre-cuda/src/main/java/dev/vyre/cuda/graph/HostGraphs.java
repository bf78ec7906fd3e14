package dev.vyre.cuda.graph;

import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.EdgeList;
import java.util.stream.IntStream;

/**
 * The graphs a run derives on the host from a directed graph, built once per graph and kept while
 * the engine runs that graph: the transpose (in-edges, which pull reads on a directed BFS) and the
 * symmetrized graph (weak components). Both go through {@link CsrGraph#build}, which drops duplicates.
 */
final class HostGraphs implements AutoCloseable {

  private CsrGraph source;
  private CsrGraph transposed;
  private CsrGraph symmetrized;

  /** The transpose of {@code graph}: {@code v -> u} for every arc {@code u -> v}. */
  CsrGraph transposed(CsrGraph graph) {
    follow(graph);
    if (transposed == null) {
      transposed = build(graph, false);
    }
    return transposed;
  }

  /** {@code graph} with both directions of every arc, undirected. */
  CsrGraph symmetrized(CsrGraph graph) {
    follow(graph);
    if (symmetrized == null) {
      symmetrized = build(graph, true);
    }
    return symmetrized;
  }

  /** A new source graph drops what was derived from the last one. */
  private void follow(CsrGraph graph) {
    if (graph != source) {
      close();
      source = graph;
    }
  }

  /** The arcs reversed, as a directed graph, or as they are, symmetrized. */
  static CsrGraph build(CsrGraph graph, boolean symmetrize) {
    try (EdgeList arcs = EdgeList.allocate(graph.edgeCount())) {
      IntStream.range(0, graph.vertexCount()).parallel().forEach(u -> {
        for (long e = graph.rowStart(u), end = graph.rowEnd(u); e < end; e++) {
          int v = graph.column(e);
          if (symmetrize) {
            arcs.set(e, u, v);
          } else {
            arcs.set(e, v, u);
          }
        }
      });
      return CsrGraph.build(arcs, graph.vertexCount(), symmetrize);
    }
  }

  @Override
  public void close() {
    if (transposed != null) {
      transposed.close();
    }
    if (symmetrized != null) {
      symmetrized.close();
    }
    transposed = null;
    symmetrized = null;
    source = null;
  }
}
