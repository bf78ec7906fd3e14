package dev.vyre.graph.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.EdgeList;
import dev.vyre.graph.frontier.FrontierRun;
import dev.vyre.graph.frontier.SerialBfs;

/** What the engine's answers are checked against: a serial BFS, union-find, and Graph500's rules for a BFS tree. */
final class Oracles {

  private Oracles() {}

  /** The smallest vertex id of each vertex's weak component, by union-find over every arc. */
  static int[] components(CsrGraph graph) {
    int n = graph.vertexCount();
    int[] parent = new int[n];
    for (int v = 0; v < n; v++) {
      parent[v] = v;
    }
    for (int u = 0; u < n; u++) {
      for (long e = graph.rowStart(u); e < graph.rowEnd(u); e++) {
        int a = find(parent, u);
        int b = find(parent, graph.column(e));
        // The smaller root wins, so every root is its component's smallest id.
        parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
    int[] labels = new int[n];
    for (int v = 0; v < n; v++) {
      labels[v] = find(parent, v);
    }
    return labels;
  }

  private static int find(int[] parent, int v) {
    while (parent[v] != v) {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
    return v;
  }

  /** A BFS run's depths are the serial BFS's and its parents a BFS tree by Graph500's rules. */
  static void checkBfs(CsrGraph graph, int source, FrontierRun run) {
    int[] expected = SerialBfs.depths(graph, source);
    assertArrayEquals(expected, run.values(), "depths");
    checkTree(graph, source, run.values(), run.parents());
    checkLevelSizes(graph, run);
  }

  /**
   * Graph500's validation: the root is its own parent at depth 0; every other reached vertex's parent
   * is reached one level up and joined to it by an arc of the graph; unreached vertices have depth
   * and parent -1; the ends of every edge differ in depth by at most one when both are reached (on a
   * directed graph: an arc's head is at most one level below its tail).
   */
  static void checkTree(CsrGraph graph, int source, int[] depth, int[] parent) {
    int n = graph.vertexCount();
    assertEquals(n, depth.length);
    assertEquals(n, parent.length);
    assertEquals(source, parent[source], "the root is its own parent");
    assertEquals(0, depth[source]);
    for (int v = 0; v < n; v++) {
      if (depth[v] < 0) {
        assertEquals(-1, depth[v]);
        assertEquals(-1, parent[v], "unreached vertex " + v + " has a parent");
      } else if (v != source) {
        int p = parent[v];
        assertTrue(p >= 0 && p < n, "vertex " + v + " has parent " + p);
        assertEquals(depth[v] - 1, depth[p], "vertex " + v + "'s parent " + p + " is not one level up");
        assertTrue(hasArc(graph, p, v), "no arc " + p + " -> " + v + " for vertex " + v + "'s parent");
      }
    }
    for (int u = 0; u < n; u++) {
      for (long e = graph.rowStart(u); e < graph.rowEnd(u); e++) {
        int v = graph.column(e);
        if (depth[u] >= 0) {
          assertTrue(depth[v] >= 0, "arc " + u + " -> " + v + " leaves the reached set");
          int span = graph.undirected() ? Math.abs(depth[u] - depth[v]) : depth[v] - depth[u];
          assertTrue(span <= 1, "arc " + u + " -> " + v + " spans depths " + depth[u] + " and " + depth[v]);
        }
      }
    }
  }

  /** Level {@code i}'s frontier is the vertices at depth {@code i}, and its edges their out-degrees. */
  private static void checkLevelSizes(CsrGraph graph, FrontierRun run) {
    int max = -1;
    for (int d : run.values()) {
      max = Math.max(max, d);
    }
    assertEquals(max + 1, run.levels().size(), "levels");
    long[] vertices = new long[max + 1];
    long[] edges = new long[max + 1];
    for (int v = 0; v < graph.vertexCount(); v++) {
      int d = run.values()[v];
      if (d >= 0) {
        vertices[d]++;
        edges[d] += graph.degree(v);
      }
    }
    for (int i = 0; i <= max; i++) {
      assertEquals(i, run.levels().get(i).level());
      assertEquals(vertices[i], run.levels().get(i).frontierVertices(), "frontier vertices of level " + i);
      assertEquals(edges[i], run.levels().get(i).frontierEdges(), "frontier edges of level " + i);
    }
  }

  private static boolean hasArc(CsrGraph graph, int u, int v) {
    for (long e = graph.rowStart(u); e < graph.rowEnd(u); e++) {
      if (graph.column(e) == v) {
        return true;
      }
    }
    return false;
  }

  /** A directed graph from an undirected one: each edge kept in one direction, the other, or both, by a hash. */
  static CsrGraph directed(CsrGraph undirected) {
    try (EdgeList edges = EdgeList.create()) {
      for (int u = 0; u < undirected.vertexCount(); u++) {
        for (long e = undirected.rowStart(u); e < undirected.rowEnd(u); e++) {
          int v = undirected.column(e);
          int hash = (u * 0x9E3779B1 ^ v * 0x85EBCA6B) >>> 29;
          if (hash < 5) {
            edges.add(u, v);
          }
        }
      }
      return CsrGraph.build(edges, undirected.vertexCount(), false);
    }
  }
}
