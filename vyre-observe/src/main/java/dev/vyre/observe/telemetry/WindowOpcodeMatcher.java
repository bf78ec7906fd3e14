package dev.vyre.observe.telemetry;

import java.util.Arrays;

/**
 * Set membership for route-window opcodes with vyre's strategies, chosen once per decode: none,
 * a single opcode, a 128-bit bitmap when every opcode is below 128, a linear scan of at most 8,
 * or a binary search. Unsorted or duplicated input is sorted and deduplicated (unsigned) into
 * reused scratch first.
 */
final class WindowOpcodeMatcher {

  enum Strategy { NONE, SINGLE, DENSE_BITMAP, SMALL_SLICE, LARGE_SLICE }

  private static final int SMALL_SLICE_MAX = 8;
  private static final int BITMAP_BITS = 128;

  private Strategy strategy = Strategy.NONE;
  private int single;
  private long bitmapLow;
  private long bitmapHigh;
  private int[] lookup = new int[0];
  private int length;
  /** The small slice padded to 8 with its first opcode, so membership is 8 compares without branches. */
  private final int[] padded = new int[SMALL_SLICE_MAX];
  private int[] sortScratch = new int[0];

  /** Chooses the strategy for {@code opcodes} (u32 bit patterns; order and duplicates do not matter). */
  void configure(int[] opcodes) {
    if (opcodes.length == 0) {
      strategy = Strategy.NONE;
      return;
    }
    if (isSortedUnique(opcodes)) {
      lookup = opcodes;
      length = opcodes.length;
    } else {
      sortUniqueIntoScratch(opcodes);
    }
    if (length == 1) {
      strategy = Strategy.SINGLE;
      single = lookup[0];
    } else if (Integer.compareUnsigned(lookup[length - 1], BITMAP_BITS) < 0) {
      // Sorted unsigned, so the last opcode is the largest: all fit the bitmap.
      strategy = Strategy.DENSE_BITMAP;
      bitmapLow = 0;
      bitmapHigh = 0;
      for (int i = 0; i < length; i++) {
        int opcode = lookup[i];
        if (opcode < 64) {
          bitmapLow |= 1L << opcode;
        } else {
          bitmapHigh |= 1L << (opcode - 64);
        }
      }
    } else if (length <= SMALL_SLICE_MAX) {
      strategy = Strategy.SMALL_SLICE;
      Arrays.fill(padded, lookup[0]);
      System.arraycopy(lookup, 0, padded, 0, length);
    } else {
      strategy = Strategy.LARGE_SLICE;
    }
  }

  Strategy strategy() {
    return strategy;
  }

  boolean isEnabled() {
    return strategy != Strategy.NONE;
  }

  boolean matches(int opcode) {
    return switch (strategy) {
      case NONE -> false;
      case SINGLE -> opcode == single;
      case DENSE_BITMAP -> Integer.compareUnsigned(opcode, BITMAP_BITS) < 0
          && ((opcode < 64 ? bitmapLow >>> opcode : bitmapHigh >>> (opcode - 64)) & 1) == 1;
      case SMALL_SLICE -> containsLinear(opcode);
      case LARGE_SLICE -> containsSorted(opcode);
    };
  }

  /** Capacity of the sort/dedup scratch, for reuse checks. */
  int scratchCapacity() {
    return sortScratch.length;
  }

  /** The linear scan, written without branches: ring opcodes are data, so a branchy scan mispredicts. */
  private boolean containsLinear(int opcode) {
    int[] p = padded;
    return (opcode == p[0]) | (opcode == p[1]) | (opcode == p[2]) | (opcode == p[3]) | (opcode == p[4])
        | (opcode == p[5]) | (opcode == p[6]) | (opcode == p[7]);
  }

  private boolean containsSorted(int opcode) {
    int low = 0;
    int high = length - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      int order = Integer.compareUnsigned(lookup[mid], opcode);
      if (order < 0) {
        low = mid + 1;
      } else if (order > 0) {
        high = mid - 1;
      } else {
        return true;
      }
    }
    return false;
  }

  private static boolean isSortedUnique(int[] values) {
    for (int i = 1; i < values.length; i++) {
      if (Integer.compareUnsigned(values[i - 1], values[i]) >= 0) {
        return false;
      }
    }
    return true;
  }

  private void sortUniqueIntoScratch(int[] opcodes) {
    if (sortScratch.length < opcodes.length) {
      sortScratch = new int[opcodes.length];
    }
    // Flipping the sign bit makes a signed sort order the values as unsigned.
    for (int i = 0; i < opcodes.length; i++) {
      sortScratch[i] = opcodes[i] ^ Integer.MIN_VALUE;
    }
    Arrays.sort(sortScratch, 0, opcodes.length);
    int unique = 0;
    for (int i = 0; i < opcodes.length; i++) {
      if (unique == 0 || sortScratch[unique - 1] != sortScratch[i]) {
        sortScratch[unique++] = sortScratch[i];
      }
    }
    for (int i = 0; i < unique; i++) {
      sortScratch[i] ^= Integer.MIN_VALUE;
    }
    lookup = sortScratch;
    length = unique;
  }
}
