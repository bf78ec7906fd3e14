package dev.vyre.graph.reference;

import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierCalibration;
import dev.vyre.graph.frontier.FrontierResidency;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Optional;

/**
 * Breadth-first search: a push claims an unvisited neighbour by compare-and-set on its depth and
 * becomes its parent (marking no bit: the claim queues it once); a pull gives an unvisited vertex
 * the first in-neighbour it finds in the frontier. Depths are exact either way; parents form some
 * BFS tree.
 */
final class BfsTraversal extends Traversal {

  private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

  private final int source;
  private final int[] parents;

  /**
   * @param graph the graph searched
   * @param reverse its reverse ({@code graph} itself when undirected), pulled along
   */
  BfsTraversal(CsrGraph graph, CsrGraph reverse, int source, int workers, FrontierResidency residency,
      Optional<MegakernelExecutionTopology> forced, FrontierCalibration pinned) {
    super(FrontierAlgorithm.BFS, graph, reverse, new int[graph.vertexCount()], false, workers, residency, forced,
        pinned);
    this.source = source;
    this.parents = new int[graph.vertexCount()];
  }

  @Override
  void setup(WorkerContext me, int from, int to) {
    Arrays.fill(values, from, to, -1);
    Arrays.fill(parents, from, to, -1);
    if (source >= from && source < to) {
      values[source] = 0;
      parents[source] = source;
      produce(me, source);
    }
  }

  @Override
  void push(WorkerContext me, int u, long from, long to) {
    int[] depth = values;
    int reached = level + 1;
    for (long e = from; e < to; e++) {
      int v = outColumns.getAtIndex(ValueLayout.JAVA_INT, e);
      // Read first: most neighbours are visited already, and a failed compare-and-set costs more.
      if (depth[v] < 0 && INTS.compareAndSet(depth, v, -1, reached)) {
        parents[v] = u;
        produce(me, v);
      }
    }
  }

  @Override
  void pushAlone(WorkerContext me, int u, long from, long to) {
    int[] depth = values;
    int reached = level + 1;
    for (long e = from; e < to; e++) {
      int v = outColumns.getAtIndex(ValueLayout.JAVA_INT, e);
      if (depth[v] < 0) {
        depth[v] = reached;
        parents[v] = u;
        produce(me, v);
      }
    }
  }

  @Override
  long pull(WorkerContext me, int word) {
    int[] depth = values;
    long[] inputBits = frontier.currentBits;
    int reached = level + 1;
    int base = word << 6;
    int end = (int) Math.min(vertices, base + 64L);
    long found = 0;
    for (int v = base; v < end; v++) {
      if (depth[v] >= 0) {
        continue;
      }
      for (long e = inOffsets.getAtIndex(ValueLayout.JAVA_LONG, v), last = inOffsets.getAtIndex(ValueLayout.JAVA_LONG,
          v + 1L); e < last; e++) {
        int u = inColumns.getAtIndex(ValueLayout.JAVA_INT, e);
        if (FrontierBuffers.testBit(inputBits, u)) {
          depth[v] = reached;
          parents[v] = u;
          found |= 1L << v;
          produce(me, v);
          break;
        }
      }
    }
    return found;
  }

  @Override
  int[] parents() {
    return parents;
  }
}
