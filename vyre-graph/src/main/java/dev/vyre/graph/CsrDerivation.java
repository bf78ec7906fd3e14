package dev.vyre.graph;

import dev.vyre.driver.error.InputException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Builds the graphs {@link CsrGraph#transpose()} and {@link CsrGraph#symmetrized()} derive from a
 * directed graph, off-heap and in parallel on the common fork-join pool, as {@link CsrGraph#build}
 * does.
 */
final class CsrDerivation {

  private CsrDerivation() {}

  /**
   * The reverse of a directed graph: in-degrees counted with atomic adds, prefix-summed into
   * offsets, sources scattered through atomic cursors, then each run sorted. The input has no
   * duplicate arcs or loops, so neither has the result.
   */
  static CsrGraph transpose(CsrGraph g) {
    int n = g.vertexCount();
    long m = g.edgeCount();
    MemorySegment columns = g.columnIndices();
    Arena result = Arena.ofShared();
    try (Arena scratch = Arena.ofShared()) {
      MemorySegment offsets = result.allocate(ValueLayout.JAVA_LONG, n + 1L);
      Parallel.forRanges(m, CsrGraph.GRAIN, (from, to) -> {
        for (long e = from; e < to; e++) {
          CsrGraph.increment(offsets, columns.getAtIndex(ValueLayout.JAVA_INT, e));
        }
      });
      CsrGraph.exclusiveScan(offsets, n);
      MemorySegment cursor = scratch.allocate(ValueLayout.JAVA_LONG, n + 1L);
      MemorySegment.copy(offsets, 0, cursor, 0, offsets.byteSize());
      MemorySegment reversed = result.allocate(ValueLayout.JAVA_INT, m);
      MemorySegment rows = g.rowOffsets();
      Parallel.forRanges(n, vertexGrain(n, m), (from, to) -> {
        for (long u = from; u < to; u++) {
          for (long e = rows.getAtIndex(ValueLayout.JAVA_LONG, u), end = rows.getAtIndex(ValueLayout.JAVA_LONG, u + 1);
              e < end; e++) {
            int v = columns.getAtIndex(ValueLayout.JAVA_INT, e);
            reversed.setAtIndex(ValueLayout.JAVA_INT, CsrGraph.increment(cursor, v), (int) u);
          }
        }
      });
      // The cursors raced, so a run holds its sources in any order.
      Parallel.forRanges(n, vertexGrain(n, m), (from, to) -> {
        int[] buffer = new int[16];
        for (long v = from; v < to; v++) {
          long at = offsets.getAtIndex(ValueLayout.JAVA_LONG, v);
          long length = offsets.getAtIndex(ValueLayout.JAVA_LONG, v + 1) - at;
          if (length > CsrGraph.MAX_DEGREE) {
            throw InputException.of("graph", "vertex " + v + " has " + length + " in-neighbours, more than one vertex may"
                + " have (" + CsrGraph.MAX_DEGREE + ")", "split the vertex before reversing the graph");
          }
          int len = (int) length;
          if (buffer.length < len) {
            buffer = new int[Math.max(len, (int) Math.min(CsrGraph.MAX_DEGREE, 2L * buffer.length))];
          }
          MemorySegment.copy(reversed, ValueLayout.JAVA_INT, at * Integer.BYTES, buffer, 0, len);
          Arrays.sort(buffer, 0, len);
          MemorySegment.copy(buffer, 0, reversed, ValueLayout.JAVA_INT, at * Integer.BYTES, len);
        }
      });
      return new CsrGraph(result, offsets, reversed, n, false, true);
    } catch (RuntimeException | Error e) {
      result.close();
      throw e;
    }
  }

  /**
   * The union of a directed graph and its reverse, undirected: each vertex's run is the merge of
   * its sorted out-run and in-run, counted in one parallel pass and written in a second.
   */
  static CsrGraph symmetrize(CsrGraph g, CsrGraph reverse) {
    int n = g.vertexCount();
    long bound = g.edgeCount() + reverse.edgeCount();
    MemorySegment outRows = g.rowOffsets();
    MemorySegment outColumns = g.columnIndices();
    MemorySegment inRows = reverse.rowOffsets();
    MemorySegment inColumns = reverse.columnIndices();
    Arena result = Arena.ofShared();
    try {
      MemorySegment offsets = result.allocate(ValueLayout.JAVA_LONG, n + 1L);
      Parallel.forRanges(n, vertexGrain(n, bound), (from, to) -> {
        for (long v = from; v < to; v++) {
          offsets.setAtIndex(ValueLayout.JAVA_LONG, v,
              merge(outRows, outColumns, inRows, inColumns, v, MemorySegment.NULL, 0));
        }
      });
      long total = CsrGraph.exclusiveScan(offsets, n);
      MemorySegment columns = result.allocate(ValueLayout.JAVA_INT, total);
      Parallel.forRanges(n, vertexGrain(n, bound), (from, to) -> {
        for (long v = from; v < to; v++) {
          merge(outRows, outColumns, inRows, inColumns, v, columns, offsets.getAtIndex(ValueLayout.JAVA_LONG, v));
        }
      });
      return new CsrGraph(result, offsets, columns, n, true, true);
    } catch (RuntimeException | Error e) {
      result.close();
      throw e;
    }
  }

  /**
   * Merges {@code v}'s sorted out-run and in-run, each free of duplicates, writing the union to
   * {@code target} from {@code at} unless {@code target} is {@code NULL}; returns the union's size.
   */
  private static long merge(MemorySegment outRows, MemorySegment outColumns, MemorySegment inRows,
      MemorySegment inColumns, long v, MemorySegment target, long at) {
    boolean write = target.byteSize() > 0;
    long i = outRows.getAtIndex(ValueLayout.JAVA_LONG, v);
    long iEnd = outRows.getAtIndex(ValueLayout.JAVA_LONG, v + 1);
    long j = inRows.getAtIndex(ValueLayout.JAVA_LONG, v);
    long jEnd = inRows.getAtIndex(ValueLayout.JAVA_LONG, v + 1);
    long count = 0;
    while (i < iEnd || j < jEnd) {
      int a = i < iEnd ? outColumns.getAtIndex(ValueLayout.JAVA_INT, i) : Integer.MAX_VALUE;
      int b = j < jEnd ? inColumns.getAtIndex(ValueLayout.JAVA_INT, j) : Integer.MAX_VALUE;
      int next = Math.min(a, b);
      if (a == next && i < iEnd) {
        i++;
      }
      if (b == next && j < jEnd) {
        j++;
      }
      if (write) {
        target.setAtIndex(ValueLayout.JAVA_INT, at + count, next);
      }
      count++;
    }
    return count;
  }

  /** Vertices a piece: about {@link CsrGraph#GRAIN} edges' worth, at least one. */
  private static long vertexGrain(int n, long m) {
    return m <= n ? CsrGraph.GRAIN : Math.max(1, CsrGraph.GRAIN * n / m);
  }
}
