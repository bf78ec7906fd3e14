package dev.vyre.graph.reference;

/**
 * One worker's private state during a run: the chunk of next-frontier vertices it has found and not
 * yet appended, so that appending costs one atomic add a chunk rather than one a vertex.
 */
final class WorkerContext {

  final int id;
  private final int[] buffer = new int[ChunkedQueue.CHUNK];
  private int length;
  private long edges;
  private long heavyEdges;
  // What the calibration probe read, kept so that the reads are not optimized away.
  long probeSink;
  // This worker's share of the grid-wide levels' time (LevelBreakdown).
  long workNanos;
  long waitNanos;
  long exitNanos;

  WorkerContext(int id) {
    this.id = id;
  }

  /** Adds a grid-wide level's times: its work, its wait at the barrier, and the part of it after the release. */
  void timeLevel(long work, long wait, long exit) {
    workNanos += work;
    waitNanos += wait;
    exitNanos += exit;
  }

  /** Queues {@code v}, whose out-degree is {@code degree}, for {@code queue}. */
  void add(ChunkedQueue queue, int v, long degree) {
    buffer[length++] = v;
    edges += degree;
    if (degree > Traversal.HEAVY_DEGREE) {
      heavyEdges += degree;
    }
    if (length == buffer.length) {
      flush(queue);
    }
  }

  /** Appends what is buffered to {@code queue}; the worker's last act in a level. */
  void flush(ChunkedQueue queue) {
    if (length > 0) {
      queue.append(id, buffer, length, edges, heavyEdges);
      length = 0;
      edges = 0;
      heavyEdges = 0;
    }
  }
}
