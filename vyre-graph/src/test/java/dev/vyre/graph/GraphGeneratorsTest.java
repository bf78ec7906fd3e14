package dev.vyre.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class GraphGeneratorsTest {

  @Test
  void kroneckerIsDeterministicForASeedAndHasItsSize() {
    try (CsrGraph a = GraphGenerators.kronecker(12, 16, 42); CsrGraph b = GraphGenerators.kronecker(12, 16, 42);
        CsrGraph c = GraphGenerators.kronecker(12, 16, 43)) {
      GraphFixtures.assertSameGraph(a, b);
      assertNotEquals(-1, a.columnIndices().mismatch(c.columnIndices()));
      assertEquals(4096, a.vertexCount());
      assertTrue(a.undirected());
      // At most two arcs an edge; loops and duplicates (many, in a skewed graph) take some away.
      assertTrue(a.edgeCount() <= 2L * 16 * 4096 && a.edgeCount() > 16 * 4096, "arcs " + a.edgeCount());
      GraphFixtures.checkInvariants(a);
      // Not permuted: vertex 0 is where A's quadrant concentrates edges.
      long max = 0;
      for (int v = 0; v < a.vertexCount(); v++) {
        max = Math.max(max, a.degree(v));
      }
      assertEquals(max, a.degree(0));
    }
  }

  @Test
  void kroneckerScaleZeroIsOneVertexWithNoEdges() {
    try (CsrGraph g = GraphGenerators.kronecker(0, 16, 1)) {
      assertEquals(1, g.vertexCount());
      assertEquals(0, g.edgeCount());
    }
  }

  @Property(tries = 60)
  void gridHasTheLatticeArcs(@ForAll @IntRange(min = 0, max = 30) int rows, @ForAll @IntRange(min = 0, max = 30) int cols) {
    try (CsrGraph g = GraphGenerators.grid(rows, cols)) {
      assertEquals(rows * cols, g.vertexCount());
      long arcs = rows == 0 || cols == 0 ? 0 : 2L * (rows * (cols - 1L) + cols * (rows - 1L));
      assertEquals(arcs, g.edgeCount());
      GraphFixtures.checkInvariants(g);
      for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
          int v = r * cols + c;
          int expected = (r > 0 ? 1 : 0) + (r + 1 < rows ? 1 : 0) + (c > 0 ? 1 : 0) + (c + 1 < cols ? 1 : 0);
          assertEquals(expected, g.degree(v));
          if (c + 1 < cols) {
            assertTrue(GraphFixtures.contains(g, v, v + 1));
          }
          if (r + 1 < rows) {
            assertTrue(GraphFixtures.contains(g, v, v + cols));
          }
        }
      }
    }
  }

  @Test
  void uniformIsDeterministicForASeedAndHasItsSize() {
    try (CsrGraph a = GraphGenerators.uniform(10_000, 8, 5); CsrGraph b = GraphGenerators.uniform(10_000, 8, 5);
        CsrGraph c = GraphGenerators.uniform(10_000, 8, 6)) {
      GraphFixtures.assertSameGraph(a, b);
      assertNotEquals(-1, a.columnIndices().mismatch(c.columnIndices()));
      assertEquals(10_000, a.vertexCount());
      // 40,000 edges, 80,000 arcs less the few loops and duplicates a sparse uniform graph has.
      assertTrue(a.edgeCount() <= 80_000 && a.edgeCount() > 79_000, "arcs " + a.edgeCount());
      GraphFixtures.checkInvariants(a);
    }
  }

  @Test
  void badParametersAreTypedErrors() {
    assertThrows(InputException.class, () -> GraphGenerators.kronecker(31, 16, 1));
    assertThrows(InputException.class, () -> GraphGenerators.kronecker(-1, 16, 1));
    assertThrows(InputException.class, () -> GraphGenerators.kronecker(4, -1, 1));
    assertThrows(InputException.class, () -> GraphGenerators.grid(-1, 3));
    assertThrows(InputException.class, () -> GraphGenerators.grid(100_000, 100_000));
    assertThrows(InputException.class, () -> GraphGenerators.uniform(0, 3, 1));
    InputException e = assertThrows(InputException.class, () -> GraphGenerators.uniform(5, -3, 1));
    assertTrue(e.getMessage().contains("Fix: "));
  }
}
