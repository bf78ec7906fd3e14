package dev.vyre.graph;

import dev.vyre.driver.error.InputException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Edges as {@code (source, target)} pairs of {@code int} vertex ids, held off-heap in fixed-size
 * chunks so that a list may hold more edges than a Java array and grows without copying. The input
 * of {@link CsrGraph#build}; readers fill one with {@link #add}, generators allocate one and
 * {@link #set} its edges from several threads.
 *
 * <p>Not thread-safe for {@link #add}; {@link #set} and the getters may be called from any thread
 * (the chunks live in a shared arena), each index written by one thread.
 */
public final class EdgeList implements AutoCloseable {

  // 2^20 edges (8 MiB) a chunk: big enough that chunk bookkeeping is noise, small enough that a
  // small graph does not reserve much.
  private static final int CHUNK_SHIFT = 20;
  private static final long CHUNK_EDGES = 1L << CHUNK_SHIFT;
  private static final long CHUNK_MASK = CHUNK_EDGES - 1;
  private static final long EDGE_BYTES = 2L * Integer.BYTES;

  private final Arena arena = Arena.ofShared();
  private final List<MemorySegment> chunks = new ArrayList<>();
  private long size;

  private EdgeList() {}

  /** An empty list, to {@link #add} to. */
  public static EdgeList create() {
    return new EdgeList();
  }

  /**
   * A list of {@code count} edges, all {@code (0, 0)} until {@link #set}.
   *
   * @param count the number of edges, zero or more
   * @return the list
   */
  public static EdgeList allocate(long count) {
    if (count < 0) {
      throw InputException.of("edge list", "a list of " + count + " edges was asked for", "ask for zero or more edges");
    }
    EdgeList list = new EdgeList();
    list.ensureCapacity(count);
    list.size = count;
    return list;
  }

  private void ensureCapacity(long count) {
    while ((long) chunks.size() * CHUNK_EDGES < count) {
      chunks.add(arena.allocate(CHUNK_EDGES * EDGE_BYTES, Long.BYTES));
    }
  }

  /**
   * Appends the edge {@code source -> target}.
   *
   * @param source the source vertex id, zero or more
   * @param target the target vertex id, zero or more
   */
  public void add(int source, int target) {
    if (source < 0 || target < 0) {
      throw InputException.of("edge list", "the edge " + source + " -> " + target + " has a negative vertex id",
          "use vertex ids from 0 up");
    }
    if ((size & CHUNK_MASK) == 0 && (size >>> CHUNK_SHIFT) == chunks.size()) {
      chunks.add(arena.allocate(CHUNK_EDGES * EDGE_BYTES, Long.BYTES));
    }
    size++;
    set(size - 1, source, target);
  }

  /**
   * Sets edge {@code index} to {@code source -> target}.
   *
   * @param index the edge, below {@link #size()}
   * @param source the source vertex id, zero or more
   * @param target the target vertex id, zero or more
   */
  public void set(long index, int source, int target) {
    checkIndex(index);
    MemorySegment chunk = chunks.get((int) (index >>> CHUNK_SHIFT));
    long at = (index & CHUNK_MASK) * EDGE_BYTES;
    chunk.set(ValueLayout.JAVA_INT, at, source);
    chunk.set(ValueLayout.JAVA_INT, at + Integer.BYTES, target);
  }

  /** The source of edge {@code index}. */
  public int source(long index) {
    checkIndex(index);
    return chunks.get((int) (index >>> CHUNK_SHIFT)).get(ValueLayout.JAVA_INT, (index & CHUNK_MASK) * EDGE_BYTES);
  }

  /** The target of edge {@code index}. */
  public int target(long index) {
    checkIndex(index);
    return chunks.get((int) (index >>> CHUNK_SHIFT))
        .get(ValueLayout.JAVA_INT, (index & CHUNK_MASK) * EDGE_BYTES + Integer.BYTES);
  }

  /** The number of edges. */
  public long size() {
    return size;
  }

  private void checkIndex(long index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException("edge " + index + " of " + size);
    }
  }

  /** Frees the off-heap chunks; the list must not be used afterwards. */
  @Override
  public void close() {
    arena.close();
  }

  @Override
  public String toString() {
    return "EdgeList[" + size + " edges]";
  }
}
