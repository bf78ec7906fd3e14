package dev.vyre.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Shared checks: the CSR invariants, and a graph as plain lists for exact comparison. */
final class GraphFixtures {

  private GraphFixtures() {}

  /** Each vertex's neighbours, read through {@link CsrGraph#neighbor}. */
  static List<List<Integer>> adjacency(CsrGraph g) {
    List<List<Integer>> rows = new ArrayList<>();
    for (int v = 0; v < g.vertexCount(); v++) {
      List<Integer> row = new ArrayList<>();
      for (long i = 0; i < g.degree(v); i++) {
        row.add(g.neighbor(v, i));
      }
      rows.add(row);
    }
    return rows;
  }

  /** What {@link CsrGraph#build} should make of these edges: a sorted set a vertex, no loops. */
  static List<List<Integer>> expected(int n, List<int[]> edges, boolean undirected) {
    List<TreeSet<Integer>> sets = new ArrayList<>();
    for (int v = 0; v < n; v++) {
      sets.add(new TreeSet<>());
    }
    for (int[] e : edges) {
      if (e[0] != e[1]) {
        sets.get(e[0]).add(e[1]);
        if (undirected) {
          sets.get(e[1]).add(e[0]);
        }
      }
    }
    List<List<Integer>> rows = new ArrayList<>();
    for (TreeSet<Integer> s : sets) {
      rows.add(new ArrayList<>(s));
    }
    return rows;
  }

  /** Offsets from 0 to edgeCount, non-decreasing; runs strictly ascending, in range, loop-free; symmetric if undirected. */
  static void checkInvariants(CsrGraph g) {
    MemorySegment offsets = g.rowOffsets();
    MemorySegment columns = g.columnIndices();
    int n = g.vertexCount();
    assertEquals((n + 1L) * Long.BYTES, offsets.byteSize());
    assertEquals(g.edgeCount() * Integer.BYTES, columns.byteSize());
    assertEquals(0, offsets.getAtIndex(ValueLayout.JAVA_LONG, 0));
    assertEquals(g.edgeCount(), offsets.getAtIndex(ValueLayout.JAVA_LONG, n));
    for (int v = 0; v < n; v++) {
      long from = offsets.getAtIndex(ValueLayout.JAVA_LONG, v);
      long to = offsets.getAtIndex(ValueLayout.JAVA_LONG, v + 1L);
      assertTrue(from <= to, "offsets decrease at " + v);
      for (long e = from; e < to; e++) {
        int u = columns.getAtIndex(ValueLayout.JAVA_INT, e);
        assertTrue(u >= 0 && u < n, "neighbour " + u + " out of range");
        assertTrue(u != v, "self loop at " + v);
        if (e > from) {
          assertTrue(columns.getAtIndex(ValueLayout.JAVA_INT, e - 1) < u, "run of " + v + " not strictly ascending");
        }
        if (g.undirected()) {
          assertTrue(contains(g, u, v), "arc " + v + " -> " + u + " has no reverse");
        }
      }
    }
  }

  /** Binary search of {@code v}'s sorted run. */
  static boolean contains(CsrGraph g, int v, int target) {
    long lo = g.rowStart(v);
    long hi = g.rowEnd(v) - 1;
    while (lo <= hi) {
      long mid = (lo + hi) >>> 1;
      int c = g.column(mid);
      if (c == target) {
        return true;
      }
      if (c < target) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return false;
  }

  /** Same vertex count, direction and arcs. */
  static void assertSameGraph(CsrGraph expected, CsrGraph actual) {
    assertEquals(expected.vertexCount(), actual.vertexCount());
    assertEquals(expected.undirected(), actual.undirected());
    assertEquals(expected.edgeCount(), actual.edgeCount());
    assertEquals(-1, expected.rowOffsets().mismatch(actual.rowOffsets()), "row offsets differ");
    assertEquals(-1, expected.columnIndices().mismatch(actual.columnIndices()), "column indices differ");
  }
}
