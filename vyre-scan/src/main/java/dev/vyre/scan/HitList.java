package dev.vyre.scan;

import dev.vyre.driver.error.InputException;
import java.util.Arrays;

/**
 * The matches found in one file, as (start, pattern id) pairs packed into one {@code long} each:
 * {@code start << 20 | patternId}. Pattern ids are below {@link PatternSet#MAX_PATTERNS} (2^20)
 * and starts below {@link #MAX_START} (8 TiB), so the packed values are non-negative and sort by
 * start, then pattern id: the order {@code vyre scan} prints, with no object per hit.
 */
public final class HitList {

  /** An empty list. */
  public HitList() {}

  /** Files must be smaller than this many bytes for their match starts to pack. */
  public static final long MAX_START = 1L << 43;

  private static final int PATTERN_BITS = 20;
  private static final long PATTERN_MASK = (1L << PATTERN_BITS) - 1;

  private long[] packed = new long[16];
  private int size;

  /** Appends a match; {@code start} must be below {@link #MAX_START}, the id below 2^20. */
  public void add(long start, int patternId) {
    if (start < 0 || start >= MAX_START || patternId < 0 || patternId > PATTERN_MASK) {
      throw InputException.of("hit list", "match start " + start + " or pattern id " + patternId + " does not pack",
          "scan files below 8 TiB with at most 2^20 patterns");
    }
    if (size == packed.length) {
      if (size == Integer.MAX_VALUE - 8) {
        throw InputException.of("hit list", "more than " + size + " matches in one file",
            "count them with --count, or scan with fewer patterns");
      }
      packed = Arrays.copyOf(packed, (int) Math.min(Integer.MAX_VALUE - 8, 2L * size));
    }
    packed[size++] = start << PATTERN_BITS | patternId;
  }

  /** Sorts by start offset, then pattern id. */
  public void sort() {
    Arrays.sort(packed, 0, size);
  }

  public int size() {
    return size;
  }

  public long start(int index) {
    return packed[index] >>> PATTERN_BITS;
  }

  public int patternId(int index) {
    return (int) (packed[index] & PATTERN_MASK);
  }
}
