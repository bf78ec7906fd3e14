package dev.vyre.driver.planner;

import dev.vyre.driver.error.InputException;
import java.util.Arrays;

/**
 * The dependency list of a wave DAG (vyre's {@code &[MegakernelWaveDependency]}): directed edges
 * {@code before → after}, meaning {@code before} must finish before {@code after} starts. Stored
 * as one flat array of (before, after) pairs so that a caller can build and reuse a list of a
 * million edges without a million objects. Wave indices are unsigned 64-bit values (Rust
 * {@code usize}); out-of-range indices are kept as given so the planner can report them.
 */
public final class MegakernelWaveDependencies {

  private long[] pairs;
  private int size;

  /** An empty list with room for {@code capacity} dependencies. */
  public MegakernelWaveDependencies(int capacity) {
    pairs = new long[Math.max(2, 2 * capacity)];
  }

  public MegakernelWaveDependencies() {
    this(8);
  }

  /** A list of {@code before, after, before, after, ...}. */
  public static MegakernelWaveDependencies of(long... beforeAfterPairs) {
    if (beforeAfterPairs.length % 2 != 0) {
      throw InputException.of("wave dependencies", beforeAfterPairs.length + " values do not form before/after pairs",
          "pass an even number of values: before, after, before, after, ...");
    }
    MegakernelWaveDependencies dependencies = new MegakernelWaveDependencies(beforeAfterPairs.length / 2);
    for (int i = 0; i < beforeAfterPairs.length; i += 2) {
      dependencies.add(beforeAfterPairs[i], beforeAfterPairs[i + 1]);
    }
    return dependencies;
  }

  /** Appends the edge {@code before → after}. */
  public void add(long before, long after) {
    int slot = 2 * size;
    if (slot == pairs.length) {
      grow();
    }
    pairs[slot] = before;
    pairs[slot + 1] = after;
    size++;
  }

  /** Forgets every edge and keeps the storage for reuse. */
  public void clear() {
    size = 0;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The wave that must finish first in edge {@code index}. */
  public long before(int index) {
    return pairs[2 * index];
  }

  /** The wave that may start once {@code before(index)} has finished. */
  public long after(int index) {
    return pairs[2 * index + 1];
  }

  private void grow() {
    long doubled = 2L * pairs.length;
    int limit = ReservationPolicy.MAX_ARRAY_LENGTH & ~1;
    if (pairs.length >= limit) {
      long requested = size + 1L;
      throw MegakernelBarrierPlanException.storageReserveFailed("wave dependencies", requested,
          "a Java array holds at most " + limit / 2 + " dependencies");
    }
    pairs = Arrays.copyOf(pairs, (int) Math.min(doubled, limit));
  }
}
