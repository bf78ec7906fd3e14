package dev.vyre.cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.EdgeList;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The transpose and symmetrized graph derived on the host. */
class HostGraphsTest {

  private static CsrGraph directed() {
    try (EdgeList edges = EdgeList.create()) {
      edges.add(0, 1);
      edges.add(0, 2);
      edges.add(2, 1);
      edges.add(3, 0);
      edges.add(1, 0);
      return CsrGraph.build(edges, 5, false);
    }
  }

  private static List<Integer> neighbours(CsrGraph graph, int v) {
    List<Integer> out = new ArrayList<>();
    graph.forEachNeighbor(v, out::add);
    return out;
  }

  @Test
  void theTransposeReversesEveryArc() {
    try (CsrGraph graph = directed(); HostGraphs graphs = new HostGraphs()) {
      CsrGraph transposed = graphs.transposed(graph);
      assertEquals(graph.edgeCount(), transposed.edgeCount());
      assertEquals(List.of(1, 3), neighbours(transposed, 0));
      assertEquals(List.of(0, 2), neighbours(transposed, 1));
      assertEquals(List.of(0), neighbours(transposed, 2));
      assertEquals(List.of(), neighbours(transposed, 3));
      assertEquals(List.of(), neighbours(transposed, 4));
    }
  }

  @Test
  void theSymmetrizedGraphHasBothDirectionsOnce() {
    try (CsrGraph graph = directed(); HostGraphs graphs = new HostGraphs()) {
      CsrGraph symmetric = graphs.symmetrized(graph);
      assertTrue(symmetric.undirected());
      assertEquals(List.of(1, 2, 3), neighbours(symmetric, 0));
      assertEquals(List.of(0, 2), neighbours(symmetric, 1));
      assertEquals(8, symmetric.edgeCount());
    }
  }

  @Test
  void derivedGraphsAreBuiltOncePerSourceGraph() {
    try (CsrGraph first = directed(); CsrGraph second = directed(); HostGraphs graphs = new HostGraphs()) {
      CsrGraph transposed = graphs.transposed(first);
      assertSame(transposed, graphs.transposed(first));
      assertSame(graphs.symmetrized(first), graphs.symmetrized(first));
      assertSame(transposed, graphs.transposed(first));
      assertNotSame(transposed, graphs.transposed(second));
    }
  }
}
