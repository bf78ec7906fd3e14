package dev.vyre.graph.reference;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A frontier's vertex queue, appended to in chunks by the workers. One atomic add reserves both a
 * chunk's place and its index, so chunk {@code c + 1} starts where chunk {@code c} ends; the chunk
 * table keeps each chunk's out-edges, from which an exclusive prefix gives every chunk's first edge
 * and lets workers split the frontier's edges evenly without another pass or barrier.
 */
final class ChunkedQueue {

  /** Vertices a worker buffers before appending them. */
  static final int CHUNK = 512;

  final int[] items;
  private final int[] chunkPosition;
  private final long[] chunkEdges;
  // Edges of the chunk's vertices whose degree is above Traversal.HEAVY_DEGREE.
  private final long[] chunkHeavyEdges;
  private final long[] chunkFirstEdge;
  // chunks << 32 | size: the size stays below 2^31, so it never carries into the chunk count.
  private final AtomicLong tail = new AtomicLong();
  private final AtomicLong edges = new AtomicLong();
  private int chunks;

  /**
   * @param capacity the most vertices the queue holds (every vertex is queued at most once a level)
   * @param appenders the workers; each appends at most one partial chunk a level
   */
  ChunkedQueue(int capacity, int appenders) {
    items = new int[capacity];
    int table = capacity / CHUNK + appenders + 1;
    chunkPosition = new int[table];
    chunkEdges = new long[table];
    chunkHeavyEdges = new long[table];
    chunkFirstEdge = new long[table + 1];
  }

  /** Appends {@code buffer[0, length)}, whose out-edges are {@code edgeCount} ({@code heavy} of them from heavy vertices). */
  void append(int[] buffer, int length, long edgeCount, long heavy) {
    long reserved = tail.getAndAdd((1L << 32) | length);
    int position = (int) reserved;
    int chunk = (int) (reserved >>> 32);
    System.arraycopy(buffer, 0, items, position, length);
    chunkPosition[chunk] = position;
    chunkEdges[chunk] = edgeCount;
    chunkHeavyEdges[chunk] = heavy;
    edges.getAndAdd(edgeCount);
  }

  /** Empties the queue; only between levels. */
  void reset() {
    tail.set(0);
    edges.set(0);
    chunks = 0;
  }

  /** The vertices queued. */
  int size() {
    return (int) tail.get();
  }

  /** The sum of the queued vertices' out-degrees. */
  long edges() {
    return edges.get();
  }

  /**
   * Prepares an even split of the edges of the queued vertices (all of them, or only the heavy
   * ones): each chunk's first edge, in queue order. Only between levels.
   *
   * @return the edges to split
   */
  long prepareSplit(boolean heavyOnly) {
    chunks = (int) (tail.get() >>> 32);
    long[] counts = heavyOnly ? chunkHeavyEdges : chunkEdges;
    long sum = 0;
    for (int c = 0; c < chunks; c++) {
      chunkFirstEdge[c] = sum;
      sum += counts[c];
    }
    chunkFirstEdge[chunks] = sum;
    return sum;
  }

  /** The last chunk whose first split edge is at or before {@code edge}, below the total of {@link #prepareSplit}: it holds that edge. */
  int chunkOf(long edge) {
    int lo = 0;
    int hi = chunks - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (chunkFirstEdge[mid] <= edge) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /** The queue position of {@code chunk}'s first vertex. */
  int position(int chunk) {
    return chunkPosition[chunk];
  }

  /** The first split edge of {@code chunk}. */
  long firstEdge(int chunk) {
    return chunkFirstEdge[chunk];
  }
}
