package dev.vyre.graph.reference;

import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierCalibration;
import dev.vyre.graph.frontier.FrontierResidency;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Optional;

/**
 * Connected components by label propagation over an undirected graph: every vertex starts as its
 * own label and in the frontier; a push lowers each neighbour's label to the pusher's with an
 * atomic minimum, a pull lowers a vertex's own to the least among its frontier neighbours, and a
 * vertex whose label fell joins the next frontier once (its bit's test-and-set). Labels end as the
 * smallest id of each component.
 */
final class ComponentsTraversal extends Traversal {

  private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

  /** @param graph an undirected graph (a directed one's {@link CsrGraph#symmetrized()}) */
  ComponentsTraversal(CsrGraph graph, int workers, FrontierResidency residency,
      Optional<MegakernelExecutionTopology> forced, FrontierCalibration pinned) {
    super(FrontierAlgorithm.LABEL_PROPAGATION, graph, graph, new int[graph.vertexCount()], true, workers, residency,
        forced, pinned);
  }

  @Override
  void setup(WorkerContext me, int from, int to) {
    if (from >= to) {
      return;
    }
    for (int v = from; v < to; v++) {
      values[v] = v;
      produce(me, v);
    }
    // The range is whole words, but for the graph's last.
    for (int word = from >>> 6, last = (int) ((to + 63L) >>> 6); word < last; word++) {
      int tail = to - (word << 6);
      frontier.nextBits[word] = tail >= 64 ? -1L : (1L << tail) - 1;
    }
  }

  @Override
  void push(WorkerContext me, int u, long from, long to) {
    int[] labels = values;
    int label = labels[u];
    for (long e = from; e < to; e++) {
      int v = outColumns.getAtIndex(ValueLayout.JAVA_INT, e);
      for (int seen = labels[v]; label < seen; seen = labels[v]) {
        if (INTS.compareAndSet(labels, v, seen, label)) {
          if (FrontierBuffers.setBit(frontier.nextBits, v)) {
            produce(me, v);
          }
          break;
        }
      }
    }
  }

  @Override
  void pushAlone(WorkerContext me, int u, long from, long to) {
    int[] labels = values;
    long[] bits = frontier.nextBits;
    int label = labels[u];
    for (long e = from; e < to; e++) {
      int v = outColumns.getAtIndex(ValueLayout.JAVA_INT, e);
      if (label < labels[v]) {
        labels[v] = label;
        long bit = 1L << v;
        if ((bits[v >>> 6] & bit) == 0) {
          bits[v >>> 6] |= bit;
          produce(me, v);
        }
      }
    }
  }

  @Override
  long pull(WorkerContext me, int word) {
    int[] labels = values;
    long[] inputBits = frontier.currentBits;
    int base = word << 6;
    int end = (int) Math.min(vertices, base + 64L);
    long found = 0;
    for (int v = base; v < end; v++) {
      int own = labels[v];
      int least = own;
      for (long e = inOffsets.getAtIndex(ValueLayout.JAVA_LONG, v), last = inOffsets.getAtIndex(ValueLayout.JAVA_LONG,
          v + 1L); e < last; e++) {
        int u = inColumns.getAtIndex(ValueLayout.JAVA_INT, e);
        if (FrontierBuffers.testBit(inputBits, u)) {
          least = Math.min(least, labels[u]);
        }
      }
      if (least < own) {
        labels[v] = least;
        found |= 1L << v;
        produce(me, v);
      }
    }
    return found;
  }

  @Override
  int[] parents() {
    return new int[0];
  }
}
