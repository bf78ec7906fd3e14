package dev.vyre.graph;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.vyre.driver.error.InputException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * An immutable graph in compressed sparse row form, held off-heap so that it may be larger than a
 * Java array and handed to a kernel as it is.
 *
 * <p>Two segments, in native byte order, allocated in a shared arena the graph owns and frees on
 * {@link #close()}:
 *
 * <ul>
 *   <li>{@link #rowOffsets()}: {@code vertexCount() + 1} {@code long}s, ascending, from 0 to
 *       {@link #edgeCount()}; the neighbours of {@code v} are entries {@code [offset[v],
 *       offset[v + 1])} of
 *   <li>{@link #columnIndices()}: {@link #edgeCount()} {@code int} vertex ids, each vertex's run
 *       sorted ascending.
 * </ul>
 *
 * <p>{@link #build} cleans the edges the way the GAP benchmark suite's builder does: self loops are
 * dropped, duplicate edges are kept once, and an undirected graph is symmetrized (every edge
 * {@code u - v} is stored as both arcs {@code u -> v} and {@code v -> u}, so {@link #edgeCount()}
 * counts it twice).
 *
 * <p>{@link #transpose()} and {@link #symmetrized()} derive the reverse and the undirected graph,
 * each built once, on first use, and owned by this graph.
 *
 * <p>Reads are safe from any thread; {@link #close()} must not race them.
 */
public final class CsrGraph implements AutoCloseable {

  // Atomic adds on off-heap longs: the degree counters and the scatter cursors.
  private static final VarHandle LONGS = ValueLayout.JAVA_LONG.varHandle();
  // Below this many edges or vertices a piece is not worth a task.
  static final long GRAIN = 1 << 14;
  // The largest Java array: one vertex's neighbours are sorted in an int[].
  static final long MAX_DEGREE = Integer.MAX_VALUE - 8;

  private final Arena arena;
  private final MemorySegment offsets;
  private final MemorySegment columns;
  private final int vertexCount;
  private final long edgeCount;
  private final boolean undirected;
  // A derived graph belongs to the graph it came from: its own close() does nothing.
  private final boolean derived;
  private final AtomicBoolean closed = new AtomicBoolean();
  // Built on first use, freed with this graph; guarded by this.
  private CsrGraph transpose;
  private CsrGraph symmetrized;

  CsrGraph(Arena arena, MemorySegment offsets, MemorySegment columns, int vertexCount, boolean undirected,
      boolean derived) {
    this.arena = arena;
    this.offsets = offsets;
    this.columns = columns;
    this.vertexCount = vertexCount;
    this.edgeCount = offsets.getAtIndex(ValueLayout.JAVA_LONG, vertexCount);
    this.undirected = undirected;
    this.derived = derived;
  }

  /**
   * Builds a graph from an edge list, in parallel on the common fork-join pool: a counting sort by
   * source (count degrees with atomic adds, prefix-sum them into offsets, scatter targets through
   * atomic cursors), then each vertex's run is sorted and its duplicates removed, and the runs are
   * packed. Self loops are dropped. The edge list is only read; the caller still owns it.
   *
   * @param edges the edges; every id must be below {@code vertexCount}
   * @param vertexCount the number of vertices, zero or more
   * @param undirected whether each edge stands for both directions (the graph is symmetrized)
   * @return the graph, which the caller must close
   * @throws InputException if an id is out of range, a vertex has more than about 2^31
   *     neighbours, or the build needs more off-heap memory than the JVM may use
   */
  public static CsrGraph build(EdgeList edges, int vertexCount, boolean undirected) {
    if (vertexCount < 0) {
      throw InputException.of("graph", "the vertex count is " + vertexCount, "give zero or more vertices");
    }
    int n = vertexCount;
    long m = edges.size();
    requireMemory(n, m, undirected);
    Arena result = Arena.ofShared();
    try (Arena scratch = Arena.ofShared()) {
      // 1. Degrees, counted into what becomes the offsets: one long a vertex plus the total.
      MemorySegment start = scratch.allocate(ValueLayout.JAVA_LONG, n + 1L);
      Parallel.forRanges(m, GRAIN, (from, to) -> {
        for (long e = from; e < to; e++) {
          int s = edges.source(e);
          int t = edges.target(e);
          if (s >= n || t >= n) {
            throw InputException.of("edge list", "edge " + e + " (" + s + " -> " + t + ") names a vertex outside 0.."
                + (n - 1L), "give ids below the vertex count " + n + ", or a larger vertex count");
          }
          if (s != t) {
            increment(start, s);
            if (undirected) {
              increment(start, t);
            }
          }
        }
      });
      long slots = exclusiveScan(start, n);
      // 2. Scatter: every arc goes to its source's run, at a cursor taken atomically.
      MemorySegment cursor = scratch.allocate(ValueLayout.JAVA_LONG, n + 1L);
      MemorySegment.copy(start, 0, cursor, 0, start.byteSize());
      MemorySegment loose = scratch.allocate(ValueLayout.JAVA_INT, slots);
      Parallel.forRanges(m, GRAIN, (from, to) -> {
        for (long e = from; e < to; e++) {
          int s = edges.source(e);
          int t = edges.target(e);
          if (s != t) {
            loose.setAtIndex(ValueLayout.JAVA_INT, increment(cursor, s), t);
            if (undirected) {
              loose.setAtIndex(ValueLayout.JAVA_INT, increment(cursor, t), s);
            }
          }
        }
      });
      // 3. Sort each run and drop duplicates in place; the cursors become the cleaned degrees.
      MemorySegment degree = cursor;
      Parallel.forRanges(n, GRAIN, (from, to) -> {
        int[] buffer = new int[16];
        for (long v = from; v < to; v++) {
          long at = start.getAtIndex(ValueLayout.JAVA_LONG, v);
          long length = start.getAtIndex(ValueLayout.JAVA_LONG, v + 1) - at;
          if (length > MAX_DEGREE) {
            throw InputException.of("edge list", "vertex " + v + " has " + length + " arcs, more than one vertex may have ("
                + MAX_DEGREE + ")", "split the vertex or remove duplicate edges before building");
          }
          int len = (int) length;
          if (buffer.length < len) {
            buffer = new int[Math.max(len, (int) Math.min(MAX_DEGREE, 2L * buffer.length))];
          }
          MemorySegment.copy(loose, ValueLayout.JAVA_INT, at * Integer.BYTES, buffer, 0, len);
          Arrays.sort(buffer, 0, len);
          int unique = 0;
          for (int i = 0; i < len; i++) {
            if (unique == 0 || buffer[i] != buffer[unique - 1]) {
              buffer[unique++] = buffer[i];
            }
          }
          MemorySegment.copy(buffer, 0, loose, ValueLayout.JAVA_INT, at * Integer.BYTES, unique);
          degree.setAtIndex(ValueLayout.JAVA_LONG, v, unique);
        }
      });
      // 4. Pack the cleaned runs into the graph's own segments.
      MemorySegment offsets = result.allocate(ValueLayout.JAVA_LONG, n + 1L);
      MemorySegment.copy(degree, 0, offsets, 0, n * (long) Long.BYTES);
      long total = exclusiveScan(offsets, n);
      MemorySegment columns = result.allocate(ValueLayout.JAVA_INT, total);
      Parallel.forRanges(n, GRAIN, (from, to) -> {
        for (long v = from; v < to; v++) {
          long src = start.getAtIndex(ValueLayout.JAVA_LONG, v) * Integer.BYTES;
          long dst = offsets.getAtIndex(ValueLayout.JAVA_LONG, v) * Integer.BYTES;
          long bytes = degree.getAtIndex(ValueLayout.JAVA_LONG, v) * Integer.BYTES;
          MemorySegment.copy(loose, src, columns, dst, bytes);
        }
      });
      return new CsrGraph(result, offsets, columns, n, undirected, false);
    } catch (RuntimeException | Error e) {
      result.close();
      throw e;
    }
  }

  /**
   * Refuses a build that needs more off-heap memory than the JVM may use: the limit the JDK puts on
   * direct buffers, -XX:MaxDirectMemorySize (by default the maximum heap). Memory segments are not
   * held to it, so allocating would not fail but zero pages until the machine ran out, and a
   * one-line edge list can name vertex 2^31 - 2. Counted: three longs a vertex (degrees, cursors,
   * offsets) and two ints an arc.
   */
  private static void requireMemory(int n, long m, boolean undirected) {
    long arcs = undirected ? 2 * m : m;
    long needed = 3L * Long.BYTES * (n + 1L) + 2L * Integer.BYTES * arcs;
    if (needed > OffHeapLimit.BYTES) {
      throw InputException.of("graph", "building a graph of " + n + " vertices and " + m + " edges takes " + needed
          + " bytes off the heap, above the JVM's limit of " + OffHeapLimit.BYTES + " (-XX:MaxDirectMemorySize, by"
          + " default the maximum heap)", "number the vertices densely from 0 (the largest id sets the vertex count),"
          + " or raise the limit, e.g. JAVA_TOOL_OPTIONS=-XX:MaxDirectMemorySize=64g");
    }
  }

  /** The JVM's direct memory limit, read once: the option cannot change while the JVM runs. */
  private static final class OffHeapLimit {
    static final long BYTES = read();

    private static long read() {
      long set = Long.parseLong(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
          .getVMOption("MaxDirectMemorySize").getValue());
      return set > 0 ? set : Runtime.getRuntime().maxMemory();
    }
  }

  /** Adds one to the long at {@code index}, atomically, and returns the value before. */
  static long increment(MemorySegment longs, long index) {
    return (long) LONGS.getAndAdd(longs, index * Long.BYTES, 1L);
  }

  /**
   * Turns counts {@code [0, n)} into exclusive prefix sums in place and stores the total at
   * {@code n}: block sums in parallel, a short sequential scan over the blocks, then each block
   * rescanned in parallel from its base.
   */
  static long exclusiveScan(MemorySegment longs, int n) {
    int blocks = (int) Math.max(1, Math.min(1024, n / GRAIN));
    long step = (n + (long) blocks - 1) / blocks;
    long[] sums = new long[blocks];
    Parallel.forRanges(blocks, 1, (from, to) -> {
      for (int b = (int) from; b < to; b++) {
        long sum = 0;
        for (long v = b * step, end = Math.min(n, (b + 1) * step); v < end; v++) {
          sum += longs.getAtIndex(ValueLayout.JAVA_LONG, v);
        }
        sums[b] = sum;
      }
    });
    long running = 0;
    for (int b = 0; b < blocks; b++) {
      long sum = sums[b];
      sums[b] = running;
      running += sum;
    }
    Parallel.forRanges(blocks, 1, (from, to) -> {
      for (int b = (int) from; b < to; b++) {
        long base = sums[b];
        for (long v = b * step, end = Math.min(n, (b + 1) * step); v < end; v++) {
          long count = longs.getAtIndex(ValueLayout.JAVA_LONG, v);
          longs.setAtIndex(ValueLayout.JAVA_LONG, v, base);
          base += count;
        }
      }
    });
    longs.setAtIndex(ValueLayout.JAVA_LONG, n, running);
    return running;
  }

  /** The number of vertices; ids run from 0 to {@code vertexCount() - 1}. */
  public int vertexCount() {
    return vertexCount;
  }

  /** The number of stored arcs: an undirected edge counts twice, once from each end. */
  public long edgeCount() {
    return edgeCount;
  }

  /** The number of edges as given: the arcs of a directed graph, an undirected graph's edges once. */
  public long inputEdgeCount() {
    return undirected ? edgeCount / 2 : edgeCount;
  }

  /** Whether the graph was built symmetrized: {@code u -> v} is stored exactly when {@code v -> u} is. */
  public boolean undirected() {
    return undirected;
  }

  /** The number of neighbours (out-neighbours, when directed) of {@code v}. */
  public long degree(int v) {
    return rowEnd(v) - rowStart(v);
  }

  /**
   * The {@code i}-th neighbour of {@code v}, in ascending order.
   *
   * @param v the vertex
   * @param i from 0 to {@code degree(v) - 1}
   * @return the neighbour's id
   */
  public int neighbor(int v, long i) {
    long first = rowStart(v);
    long degree = rowEnd(v) - first;
    if (i < 0 || i >= degree) {
      throw new IndexOutOfBoundsException("neighbour " + i + " of vertex " + v + ", which has " + degree);
    }
    return columns.getAtIndex(ValueLayout.JAVA_INT, first + i);
  }

  /**
   * The first entry of {@code v}'s run in {@link #columnIndices()}. With {@link #rowEnd} and
   * {@link #column} this walks the neighbours without allocating: {@code for (long e =
   * g.rowStart(v); e < g.rowEnd(v); e++) use(g.column(e));}
   */
  public long rowStart(int v) {
    checkVertex(v);
    return offsets.getAtIndex(ValueLayout.JAVA_LONG, v);
  }

  /** One past the last entry of {@code v}'s run in {@link #columnIndices()}. */
  public long rowEnd(int v) {
    checkVertex(v);
    return offsets.getAtIndex(ValueLayout.JAVA_LONG, v + 1L);
  }

  /** Entry {@code e} of {@link #columnIndices()}: a neighbour id. */
  public int column(long e) {
    return columns.getAtIndex(ValueLayout.JAVA_INT, e);
  }

  /** Calls {@code action} with each neighbour of {@code v}, ascending. */
  public void forEachNeighbor(int v, IntConsumer action) {
    for (long e = rowStart(v), end = rowEnd(v); e < end; e++) {
      action.accept(columns.getAtIndex(ValueLayout.JAVA_INT, e));
    }
  }

  /** The row offsets, {@code vertexCount() + 1} native-order longs; a read-only view, valid until close. */
  public MemorySegment rowOffsets() {
    return offsets.asReadOnly();
  }

  /** The column indices, {@code edgeCount()} native-order ints; a read-only view, valid until close. */
  public MemorySegment columnIndices() {
    return columns.asReadOnly();
  }

  private void checkVertex(int v) {
    if (v < 0 || v >= vertexCount) {
      throw new IndexOutOfBoundsException("vertex " + v + " of " + vertexCount);
    }
  }

  /**
   * The reverse graph: {@code v -> u} for every arc {@code u -> v}, so that its rows are this graph's
   * columns (the CSC form, stored as CSR), built off-heap in parallel on the first call. An
   * undirected graph is its own reverse: the result is a view of this graph's segments.
   *
   * @return the reverse graph, owned by this graph: the same object on every call, valid until this
   *     graph is closed, freed with it (closing the result does nothing)
   */
  public synchronized CsrGraph transpose() {
    checkOpen();
    if (transpose == null) {
      transpose = undirected ? view() : CsrDerivation.transpose(this);
    }
    return transpose;
  }

  /**
   * The undirected graph with an edge {@code u - v} wherever this one has {@code u -> v} or {@code
   * v -> u}: the union of each vertex's out- and in-neighbours, built off-heap in parallel on the
   * first call (from {@link #transpose()}). An undirected graph is already symmetric: the result is
   * a view of this graph's segments.
   *
   * @return the undirected graph, owned by this graph as {@link #transpose()}'s result is
   */
  public synchronized CsrGraph symmetrized() {
    checkOpen();
    if (symmetrized == null) {
      symmetrized = undirected ? view() : CsrDerivation.symmetrize(this, transpose());
    }
    return symmetrized;
  }

  /** This graph's segments under a graph that does not own them. */
  private CsrGraph view() {
    return new CsrGraph(null, offsets, columns, vertexCount, undirected, true);
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException("the graph is closed");
    }
  }

  /** Frees both segments and the graphs derived from them; a second call, or a call on a derived graph, does nothing. */
  @Override
  public void close() {
    if (!derived) {
      free();
    }
  }

  private void free() {
    if (closed.compareAndSet(false, true)) {
      synchronized (this) {
        if (transpose != null) {
          transpose.free();
        }
        if (symmetrized != null) {
          symmetrized.free();
        }
      }
      if (arena != null) {
        arena.close();
      }
    }
  }

  @Override
  public String toString() {
    return "CsrGraph[" + vertexCount + " vertices, " + edgeCount + " arcs, " + (undirected ? "undirected" : "directed") + "]";
  }
}
