package dev.vyre.scan;

import java.util.Arrays;

/**
 * Puts the hits of one chunk in the order a {@link ScanSink} gets them: its records come back in
 * any order (tasks append at once), so they are packed ({@link HitList#pack}) into one array and
 * sorted. Matches are sorted by start but chunks own match <em>ends</em>, so the next chunk of a
 * file may hold a match that starts before one of this chunk's last {@code overlap} bytes (a longer
 * pattern); those few hits are carried over and merged into the next chunk's. The array is the
 * job's, reused by every chunk: the heap holds at most one chunk's hits plus the carry, whatever
 * a file's match count. Used by the job's thread only.
 */
final class HitOrder {

  private long[] sorted = new long[1024];
  private int size;
  private long[] carry = new long[64];
  private int carried;
  private final HitList view = new HitList();

  /**
   * Makes room for {@code records} hits, after the carried ones when {@code withCarry} (the next
   * chunk of the same file), else after none.
   */
  void begin(long records, boolean withCarry) {
    int first = withCarry ? carried : 0;
    long needed = first + records;
    if (needed > sorted.length) {
      // A chunk holds at most ScanJob.MAX_HIT_CAPACITY hits, so this stays an int.
      sorted = new long[(int) Math.max(needed, Math.min(Integer.MAX_VALUE - 8, 2L * sorted.length))];
    }
    System.arraycopy(carry, 0, sorted, 0, first);
    size = first;
    carried = 0;
  }

  void add(long start, int patternId) {
    sorted[size++] = HitList.pack(start, patternId);
  }

  /** Puts a hit at {@code index} (a packed chunk fills each file's range) and counts it. */
  void set(int index, long start, int patternId) {
    sorted[index] = HitList.pack(start, patternId);
    size++;
  }

  void sort(int from, int to) {
    Arrays.sort(sorted, from, to);
  }

  int size() {
    return size;
  }

  /**
   * Carries the sorted hits that start at {@code start} or later over to the next chunk; returns
   * where they began, the end of the hits that may be passed on now.
   */
  int carryFrom(long start) {
    int cut = size;
    while (cut > 0 && HitList.startOf(sorted[cut - 1]) >= start) {
      cut--;
    }
    carried = size - cut;
    if (carried > carry.length) {
      carry = new long[Math.max(carried, 2 * carry.length)];
    }
    System.arraycopy(sorted, cut, carry, 0, carried);
    return cut;
  }

  /** The sorted hits in {@code [from, to)}, as a view valid until the next chunk. */
  HitList view(int from, int to) {
    view.show(sorted, from, to);
    return view;
  }

  int carried() {
    return carried;
  }

  /** The carried hits, for a file that ended: they follow everything passed on; forgets them. */
  HitList takeCarry() {
    view.show(carry, 0, carried);
    carried = 0;
    return view;
  }

  /** Forgets the carried hits (their file stopped). */
  void dropCarry() {
    carried = 0;
  }
}
