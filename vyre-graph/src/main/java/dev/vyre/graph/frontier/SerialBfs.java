package dev.vyre.graph.frontier;

import dev.vyre.driver.error.InputException;
import dev.vyre.graph.CsrGraph;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * A plain single-threaded breadth-first search with an array queue: what a JVM user has without the
 * engine, the baseline the benchmark compares with and the oracle the tests check depths against.
 */
public final class SerialBfs {

  private SerialBfs() {}

  /**
   * The depth of every vertex from {@code source}: 0 for the source, -1 where unreachable.
   *
   * @throws InputException if {@code source} is not a vertex of the graph
   */
  public static int[] depths(CsrGraph graph, int source) {
    int n = graph.vertexCount();
    int[] depth = new int[n];
    search(graph, source, depth, new int[n]);
    return depth;
  }

  /**
   * {@link #depths} into the caller's arrays, so that repeated searches (a benchmark's) allocate
   * nothing.
   *
   * @param depth filled with the depths; at least one element a vertex
   * @param queue scratch; at least one element a vertex
   * @return the number of levels, the deepest depth plus one
   * @throws InputException if {@code source} is not a vertex of the graph
   */
  public static int search(CsrGraph graph, int source, int[] depth, int[] queue) {
    FrontierEngines.requireSource(graph, source);
    int n = graph.vertexCount();
    MemorySegment offsets = graph.rowOffsets();
    MemorySegment columns = graph.columnIndices();
    Arrays.fill(depth, 0, n, -1);
    depth[source] = 0;
    queue[0] = source;
    int head = 0;
    int tail = 1;
    while (head < tail) {
      int u = queue[head++];
      int next = depth[u] + 1;
      for (long e = offsets.getAtIndex(ValueLayout.JAVA_LONG, u), end = offsets.getAtIndex(ValueLayout.JAVA_LONG, u + 1L);
          e < end; e++) {
        int v = columns.getAtIndex(ValueLayout.JAVA_INT, e);
        if (depth[v] < 0) {
          depth[v] = next;
          queue[tail++] = v;
        }
      }
    }
    // The queue holds vertices in depth order, so the last one is the deepest.
    return depth[queue[tail - 1]] + 1;
  }
}
