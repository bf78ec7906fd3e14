package dev.vyre.graph.frontier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.EdgeList;
import dev.vyre.graph.GraphGenerators;
import org.junit.jupiter.api.Test;

class SerialBfsTest {

  @Test
  void depthsFollowArcsAndUnreachedVerticesAreMinusOne() {
    try (EdgeList edges = EdgeList.create()) {
      edges.add(0, 1);
      edges.add(1, 2);
      edges.add(0, 3);
      edges.add(4, 0);
      try (CsrGraph graph = CsrGraph.build(edges, 6, false)) {
        assertArrayEquals(new int[] {0, 1, 2, 1, -1, -1}, SerialBfs.depths(graph, 0));
        assertArrayEquals(new int[] {1, 2, 3, 2, 0, -1}, SerialBfs.depths(graph, 4));
      }
    }
  }

  @Test
  void aGridsDepthsAreManhattanDistances() {
    try (CsrGraph grid = GraphGenerators.grid(7, 9)) {
      int[] depths = SerialBfs.depths(grid, 0);
      for (int v = 0; v < depths.length; v++) {
        assertTrue(depths[v] == v / 9 + v % 9);
      }
    }
  }

  @Test
  void aSourceOutsideTheGraphIsAnInputError() {
    try (CsrGraph grid = GraphGenerators.grid(2, 2)) {
      InputException e = assertThrows(InputException.class, () -> SerialBfs.depths(grid, 4));
      assertTrue(e.getMessage().contains("Fix: give a source from 0 to 3"), e.getMessage());
    }
  }
}
