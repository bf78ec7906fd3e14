package dev.vyre.graph.reference;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A frontier's vertex queue, appended to in chunks by the workers. One atomic add reserves both a
 * chunk's place and its index; the chunk table keeps each chunk's appender, position and out-edges.
 * Between levels {@link #prepareSplit} orders the table by appender, so that an even split of the
 * frontier's edges in that order gives each worker mostly the vertices it found itself, whose depth
 * and parent lines it wrote and still caches, and an exclusive prefix over it gives every chunk's
 * first edge, which lets workers split the frontier's edges without another pass or barrier.
 */
final class ChunkedQueue {

  /** Vertices a worker buffers before appending them. */
  static final int CHUNK = 512;

  final int[] items;
  private final int[] chunkAppender;
  // Chunk c + 1 starts where chunk c ends (one atomic add reserves both), so a chunk's length is the gap.
  private final int[] chunkPosition;
  private final long[] chunkEdges;
  // Edges of the chunk's vertices whose degree is above Traversal.HEAVY_DEGREE.
  private final long[] chunkHeavyEdges;
  // Indexed by the chunk's place in the split order (prepareSplit), not by its index.
  private final long[] chunkFirstEdge;
  private final int[] splitOrder;
  private final int[] appenderStart;
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
    chunkAppender = new int[table];
    chunkPosition = new int[table];
    chunkEdges = new long[table];
    chunkHeavyEdges = new long[table];
    chunkFirstEdge = new long[table + 1];
    splitOrder = new int[table];
    appenderStart = new int[appenders + 1];
  }

  /**
   * Appends {@code buffer[0, length)}, whose out-edges are {@code edgeCount} ({@code heavy} of them
   * from heavy vertices), for {@code appender}.
   */
  void append(int appender, int[] buffer, int length, long edgeCount, long heavy) {
    long reserved = tail.getAndAdd((1L << 32) | length);
    int position = (int) reserved;
    int chunk = (int) (reserved >>> 32);
    System.arraycopy(buffer, 0, items, position, length);
    chunkAppender[chunk] = appender;
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
   * ones): the chunks ordered by appender (each appender's in the order it appended them, a
   * counting sort) and each one's first edge in that order. Only between levels.
   *
   * @return the edges to split
   */
  long prepareSplit(boolean heavyOnly) {
    chunks = (int) (tail.get() >>> 32);
    Arrays.fill(appenderStart, 0);
    for (int c = 0; c < chunks; c++) {
      appenderStart[chunkAppender[c] + 1]++;
    }
    for (int a = 0; a + 1 < appenderStart.length; a++) {
      appenderStart[a + 1] += appenderStart[a];
    }
    for (int c = 0; c < chunks; c++) {
      splitOrder[appenderStart[chunkAppender[c]]++] = c;
    }
    long[] counts = heavyOnly ? chunkHeavyEdges : chunkEdges;
    long sum = 0;
    for (int t = 0; t < chunks; t++) {
      chunkFirstEdge[t] = sum;
      sum += counts[splitOrder[t]];
    }
    chunkFirstEdge[chunks] = sum;
    return sum;
  }

  /**
   * The place in the split order of the last chunk whose first split edge is at or before {@code
   * edge}, below the total of {@link #prepareSplit}: that chunk holds the edge.
   */
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

  /** The queue position of the first vertex of the chunk at {@code place} in the split order. */
  int position(int place) {
    return chunkPosition[splitOrder[place]];
  }

  /** The vertices of the chunk at {@code place} in the split order. */
  int length(int place) {
    int chunk = splitOrder[place];
    return (chunk + 1 < chunks ? chunkPosition[chunk + 1] : size()) - chunkPosition[chunk];
  }

  /** The first split edge of the chunk at {@code place} in the split order; at {@code chunks}, the total. */
  long firstEdge(int place) {
    return chunkFirstEdge[place];
  }
}
