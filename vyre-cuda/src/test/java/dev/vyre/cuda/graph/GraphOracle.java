package dev.vyre.cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.EdgeList;
import dev.vyre.graph.frontier.FrontierRun;
import java.util.Arrays;
import java.util.SplittableRandom;

/** Serial answers to hold the device to, Graph500's parent-tree rules, and random graphs. */
final class GraphOracle {

  private GraphOracle() {}

  /** Depths from {@code source} along out-edges, -1 when unreachable. */
  static int[] depths(CsrGraph graph, int source) {
    int[] depth = new int[graph.vertexCount()];
    Arrays.fill(depth, -1);
    int[] queue = new int[graph.vertexCount()];
    int tail = 0;
    depth[source] = 0;
    queue[tail++] = source;
    for (int head = 0; head < tail; head++) {
      int u = queue[head];
      for (long e = graph.rowStart(u), end = graph.rowEnd(u); e < end; e++) {
        int v = graph.column(e);
        if (depth[v] < 0) {
          depth[v] = depth[u] + 1;
          queue[tail++] = v;
        }
      }
    }
    return depth;
  }

  /** The smallest vertex id of each vertex's weak component (union-find over every arc). */
  static int[] components(CsrGraph graph) {
    int[] parent = new int[graph.vertexCount()];
    Arrays.setAll(parent, v -> v);
    for (int u = 0; u < graph.vertexCount(); u++) {
      for (long e = graph.rowStart(u), end = graph.rowEnd(u); e < end; e++) {
        int a = find(parent, u);
        int b = find(parent, graph.column(e));
        parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
    int[] label = new int[graph.vertexCount()];
    Arrays.setAll(label, v -> find(parent, v));
    return label;
  }

  private static int find(int[] parent, int v) {
    while (parent[v] != v) {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
    return v;
  }

  /**
   * Graph500's validation of a BFS tree: the source is its own parent at depth 0; every other reached
   * vertex's parent is reached one level up and has an arc to it; unreached vertices have no parent.
   */
  static void assertValidTree(CsrGraph graph, FrontierRun run, int source, String what) {
    int[] depth = run.values();
    int[] parent = run.parents();
    assertEquals(source, parent[source], what + ": the source's parent");
    assertEquals(0, depth[source], what + ": the source's depth");
    for (int v = 0; v < graph.vertexCount(); v++) {
      if (v == source) {
        continue;
      }
      if (depth[v] < 0) {
        assertEquals(-1, parent[v], what + ": unreached vertex " + v + " has a parent");
        continue;
      }
      int u = parent[v];
      assertEquals(depth[v] - 1, u < 0 ? Integer.MIN_VALUE : depth[u], what + ": parent " + u + " of " + v);
      assertTrue(hasArc(graph, u, v), what + ": no arc " + u + " -> " + v);
    }
  }

  private static boolean hasArc(CsrGraph graph, int u, int v) {
    long low = graph.rowStart(u);
    long high = graph.rowEnd(u) - 1;
    while (low <= high) {
      long mid = (low + high) >>> 1;
      int c = graph.column(mid);
      if (c == v) {
        return true;
      }
      if (c < v) {
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return false;
  }

  /** {@code edges} random arcs over {@code vertices}, plus a hub of more than a warp's worth of neighbours. */
  static CsrGraph random(int vertices, long edges, boolean undirected, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    try (EdgeList list = EdgeList.create()) {
      for (long e = 0; e < edges; e++) {
        list.add(random.nextInt(vertices), random.nextInt(vertices));
      }
      for (int i = 0; i < Math.min(vertices, 2000); i++) {
        list.add(vertices / 3, random.nextInt(vertices));
      }
      return CsrGraph.build(list, vertices, undirected);
    }
  }
}
