package dev.vyre.scan;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The keyword trie of a pattern set with nodes numbered breadth-first (root = 0), the first stage
 * of {@link AhoCorasickCompiler}. Inserting patterns in sorted order means a new pattern shares
 * exactly its common prefix with the previous one, so no child lookup structure is needed.
 */
final class Trie {

  private final int[] parent;
  private final int[] edgeClass;
  private final int[] endState;

  private Trie(int[] parent, int[] edgeClass, int[] endState) {
    this.parent = parent;
    this.edgeClass = edgeClass;
    this.endState = endState;
  }

  static Trie build(PatternSet patterns, int[] classMap) {
    int count = patterns.size();
    Integer[] order = IntStream.range(0, count).boxed().toArray(Integer[]::new);
    Arrays.sort(order, Comparator.comparing(patterns::matchBytes, Arrays::compareUnsigned));

    int capacity = (int) Math.min(patterns.totalBytes() + 1, 1 << 16);
    int[] parent = new int[capacity];
    int[] edgeClass = new int[capacity];
    int[] depth = new int[capacity];
    int[] endNode = new int[count];
    int[] path = new int[patterns.maxLength() + 1];
    int nodes = 1;
    byte[] previous = new byte[0];
    for (int id : order) {
      byte[] pattern = patterns.matchBytes(id);
      int shared = Arrays.mismatch(previous, pattern);
      shared = shared < 0 ? pattern.length : shared;
      for (int i = shared; i < pattern.length; i++) {
        if (nodes == parent.length) {
          int grown = (int) Math.min(patterns.totalBytes() + 1, 2L * nodes);
          parent = Arrays.copyOf(parent, grown);
          edgeClass = Arrays.copyOf(edgeClass, grown);
          depth = Arrays.copyOf(depth, grown);
        }
        parent[nodes] = path[i];
        edgeClass[nodes] = classMap[pattern[i] & 0xFF];
        depth[nodes] = i + 1;
        path[i + 1] = nodes++;
      }
      endNode[id] = path[pattern.length];
      previous = pattern;
    }
    return renumberBreadthFirst(nodes, parent, edgeClass, depth, endNode, patterns.maxLength());
  }

  /** Counting sort by depth, stable, so parents precede children and failure targets precede states. */
  private static Trie renumberBreadthFirst(int nodes, int[] parent, int[] edgeClass, int[] depth, int[] endNode,
      int maxDepth) {
    int[] depthStart = new int[maxDepth + 2];
    for (int n = 0; n < nodes; n++) {
      depthStart[depth[n] + 1]++;
    }
    for (int d = 0; d <= maxDepth; d++) {
      depthStart[d + 1] += depthStart[d];
    }
    int[] renamed = new int[nodes];
    for (int n = 0; n < nodes; n++) {
      renamed[n] = depthStart[depth[n]]++;
    }
    int[] newParent = new int[nodes];
    int[] newEdgeClass = new int[nodes];
    for (int n = 1; n < nodes; n++) {
      newParent[renamed[n]] = renamed[parent[n]];
      newEdgeClass[renamed[n]] = edgeClass[n];
    }
    int[] newEnd = new int[endNode.length];
    for (int id = 0; id < endNode.length; id++) {
      newEnd[id] = renamed[endNode[id]];
    }
    return new Trie(newParent, newEdgeClass, newEnd);
  }

  int size() {
    return parent.length;
  }

  int parent(int state) {
    return parent[state];
  }

  int edgeClass(int state) {
    return edgeClass[state];
  }

  /** The state reached by the whole of pattern {@code id}. */
  int endState(int id) {
    return endState[id];
  }
}
