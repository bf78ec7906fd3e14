package dev.vyre.scan;

import dev.vyre.driver.error.InputException;
import java.util.Arrays;

/**
 * The matches found in one file, as (start, pattern id) pairs packed into one {@code long} each:
 * {@code start << 20 | patternId}. Pattern ids are below {@link PatternSet#MAX_PATTERNS} (2^20)
 * and starts below {@link #MAX_START} (8 TiB), so the packed values are non-negative and sort by
 * start, then pattern id: the order {@code vyre scan} prints, with no object per hit. A {@link
 * ScanSink} is handed a view of a job's own array, one chunk's matches at a time, valid during the call.
 */
public final class HitList {

  /** An empty list. */
  public HitList() {}

  /** Files must be smaller than this many bytes for their match starts to pack. */
  public static final long MAX_START = 1L << 43;

  private static final int PATTERN_BITS = 20;
  private static final long PATTERN_MASK = (1L << PATTERN_BITS) - 1;

  private long[] packed = new long[16];
  /** Where the list starts in {@code packed}: 0, except for a view. */
  private int from;
  private int size;

  /** Appends a match; {@code start} must be below {@link #MAX_START}, the id below 2^20. */
  public void add(long start, int patternId) {
    long value = pack(start, patternId);
    if (from + size == packed.length) {
      if (size == Integer.MAX_VALUE - 8) {
        throw InputException.of("hit list", "more than " + size + " matches in one file",
            "count them with --count, or scan with fewer patterns");
      }
      packed = Arrays.copyOfRange(packed, from, from + (int) Math.min(Integer.MAX_VALUE - 8, Math.max(16, 2L * size)));
      from = 0;
    }
    packed[from + size++] = value;
  }

  /** Appends every match of {@code other}, in its order. */
  public void addAll(HitList other) {
    long needed = (long) size + other.size;
    if (needed > Integer.MAX_VALUE - 8) {
      throw InputException.of("hit list", "more than " + (Integer.MAX_VALUE - 8) + " matches in one file",
          "count them with --count, or scan with fewer patterns");
    }
    if (from + needed > packed.length) {
      packed = Arrays.copyOfRange(packed, from, from + (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, 2L * size)));
      from = 0;
    }
    System.arraycopy(other.packed, other.from, packed, from + size, other.size);
    size = (int) needed;
  }

  /** Sorts by start offset, then pattern id. */
  public void sort() {
    Arrays.sort(packed, from, from + size);
  }

  public int size() {
    return size;
  }

  public long start(int index) {
    return packed[from + index] >>> PATTERN_BITS;
  }

  public int patternId(int index) {
    return (int) (packed[from + index] & PATTERN_MASK);
  }

  /** A match as one sortable value; {@code start} must be below {@link #MAX_START}, the id below 2^20. */
  static long pack(long start, int patternId) {
    if (start < 0 || start >= MAX_START || patternId < 0 || patternId > PATTERN_MASK) {
      throw InputException.of("hit list", "match start " + start + " or pattern id " + patternId + " does not pack",
          "scan files below 8 TiB with at most 2^20 patterns");
    }
    return start << PATTERN_BITS | patternId;
  }

  /** The start of a {@link #pack packed} match. */
  static long startOf(long packedHit) {
    return packedHit >>> PATTERN_BITS;
  }

  /** Makes this list show {@code array[begin, end)} of packed matches, without copying (a view). */
  void show(long[] array, int begin, int end) {
    packed = array;
    from = begin;
    size = end - begin;
  }
}
