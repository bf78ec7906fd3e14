package dev.vyre.bench;

import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.frontier.SerialBfs;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Plain single-threaded traversals over a {@link CsrGraph}'s own segments: the serial contender
 * of {@code vyre bench graph} ({@link SerialBfs}, as a programmer would first write it) and the
 * answers every engine run is checked against.
 */
final class SerialTraversal {

  private final CsrGraph graph;
  private final MemorySegment offsets;
  private final MemorySegment columns;
  private final int[] queue;

  SerialTraversal(CsrGraph graph) {
    this.graph = graph;
    this.offsets = graph.rowOffsets();
    this.columns = graph.columnIndices();
    this.queue = new int[graph.vertexCount()];
  }

  /** Fills {@code depths} with each vertex's BFS depth from {@code source} (-1 unreachable); returns the levels. */
  int bfs(int source, int[] depths) {
    return SerialBfs.search(graph, source, depths, queue);
  }

  /**
   * Each vertex's component label, the smallest vertex id of its component. Walks out-neighbours
   * only, so on a directed graph these are not weak components; the bench's generated graphs are
   * undirected.
   */
  int[] components() {
    int n = graph.vertexCount();
    int[] labels = new int[n];
    Arrays.fill(labels, -1);
    for (int root = 0; root < n; root++) {
      // Roots are taken ascending, so the first vertex of a component met is its smallest id.
      if (labels[root] >= 0) {
        continue;
      }
      labels[root] = root;
      int head = 0;
      int tail = 0;
      queue[tail++] = root;
      while (head < tail) {
        int u = queue[head++];
        long end = offsets.getAtIndex(ValueLayout.JAVA_LONG, u + 1L);
        for (long e = offsets.getAtIndex(ValueLayout.JAVA_LONG, u); e < end; e++) {
          int v = columns.getAtIndex(ValueLayout.JAVA_INT, e);
          if (labels[v] < 0) {
            labels[v] = root;
            queue[tail++] = v;
          }
        }
      }
    }
    return labels;
  }
}
