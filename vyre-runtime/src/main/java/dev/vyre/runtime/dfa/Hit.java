package dev.vyre.runtime.dfa;

import java.util.Comparator;

/**
 * One reported match: pattern {@code patternId} occurs in input {@code inputId} starting at byte
 * {@code start} (absolute within that input). {@code inputId} is a u32 and {@code start} a u64,
 * carried as bit patterns.
 */
public record Hit(int inputId, long start, int patternId) implements Comparable<Hit> {

  private static final Comparator<Hit> ORDER = Comparator.comparingInt(Hit::inputId)
      .thenComparing(Hit::start, Long::compareUnsigned)
      .thenComparingInt(Hit::patternId);

  /** Input, then start offset, then pattern id, all unsigned: the order {@code vyre scan} prints. */
  @Override
  public int compareTo(Hit other) {
    return ORDER.compare(this, other);
  }
}
