package dev.vyre.observe.telemetry;

import dev.vyre.runtime.wire.SlotLayout;
import java.util.Arrays;

/**
 * Groups route-window slots by (ticket, opcode): the scan appends each matching slot, then a
 * stable LSD radix sort orders them by key, keeping ring order within a window (so its first slot
 * gives the tenant), and one linear pass counts each window. Memory is touched sequentially and
 * every buffer is reused, so grouping allocates nothing once grown to the largest ring seen.
 */
final class WindowGrouper {

  /** Words per grouped window: ticket, opcode, tenant, required, lookahead, then PUBLISHED..FAULT counts. */
  static final int TICKET = 0;
  static final int OPCODE = 1;
  static final int TENANT = 2;
  static final int REQUIRED = 3;
  static final int LOOKAHEAD = 4;
  /** Status {@code s} (1..7) is counted at word {@code STATUS_BASE + s}. */
  static final int STATUS_BASE = 4;
  static final int STRIDE = STATUS_BASE + SlotLayout.STATUS_FAULT + 1;

  private static final int RADIX_BITS = 8;
  private static final int RADIX = 1 << RADIX_BITS;

  /** Slot code: bit 0 required, bit 1 lookahead, bits 2..4 the counted status (0 for EMPTY and unknown). */
  private static final int REQUIRED_CODE = 1;
  private static final int LOOKAHEAD_CODE = 2;
  private static final int STATUS_SHIFT = 2;

  // One entry per matching slot, in ring order.
  private long[] keys = new long[0];
  private int[] tenants = new int[0];
  private byte[] codes = new byte[0];
  private int size;
  // Radix-sort buffers: keys and entry indices, each with a twin to scatter into.
  private long[] sortKeys = new long[0];
  private long[] sortKeysSpare = new long[0];
  private int[] order = new int[0];
  private int[] orderSpare = new int[0];
  private final int[] digitStart = new int[RADIX];
  private int[] windows = new int[0];
  private int windowCount;

  void clear() {
    size = 0;
    windowCount = 0;
  }

  /** Capacity in slots, for reuse checks. */
  int capacity() {
    return keys.length;
  }

  /** Capacity of the grouped-window array in windows, for capacity evidence. */
  int windowCapacity() {
    return windows.length / STRIDE;
  }

  /** Makes room for {@code slots} more slots, so that {@link #add} needs no check. */
  void reserve(int slots) {
    if (keys.length - size < slots) {
      int capacity = Math.max(size + slots, keys.length * 2);
      keys = Arrays.copyOf(keys, capacity);
      tenants = Arrays.copyOf(tenants, capacity);
      codes = Arrays.copyOf(codes, capacity);
    }
  }

  /** Appends one slot of window (ticket, opcode); needs room from {@link #reserve}. */
  void add(int ticket, int opcode, int tenant, int classTag, int status) {
    keys[size] = Integer.toUnsignedLong(ticket) << 32 | Integer.toUnsignedLong(opcode);
    tenants[size] = tenant;
    int counted = status >= SlotLayout.STATUS_PUBLISHED && status <= SlotLayout.STATUS_FAULT ? status : 0;
    int role = classTag == 0 ? REQUIRED_CODE : classTag == 1 ? LOOKAHEAD_CODE : 0;
    codes[size] = (byte) (counted << STATUS_SHIFT | role);
    size++;
  }

  /**
   * Groups the appended slots; returns the reused window array, {@link #STRIDE} words per window
   * in (ticket, opcode) order, of which the first {@link #windowCount()} windows are valid.
   */
  int[] group() {
    sort();
    if (windows.length < size * STRIDE) {
      windows = new int[size * STRIDE];
    }
    int at = -STRIDE;
    long previous = 0;
    windowCount = 0;
    // Keys are read in sorted order, sequentially; only the small code array is read by entry.
    for (int i = 0; i < size; i++) {
      long key = sortKeys[i];
      int entry = order[i];
      if (windowCount == 0 || key != previous) {
        at += STRIDE;
        Arrays.fill(windows, at, at + STRIDE, 0);
        windows[at + TICKET] = (int) (key >>> 32);
        windows[at + OPCODE] = (int) key;
        windows[at + TENANT] = tenants[entry];
        windowCount++;
        previous = key;
      }
      int code = codes[entry];
      windows[at + REQUIRED] += code & REQUIRED_CODE;
      windows[at + LOOKAHEAD] += (code & LOOKAHEAD_CODE) >>> 1;
      int status = code >>> STATUS_SHIFT;
      if (status != 0) {
        windows[at + STATUS_BASE + status]++;
      }
    }
    return windows;
  }

  int windowCount() {
    return windowCount;
  }

  /**
   * Sorts keys (into {@code sortKeys}) and entry indices (into {@code order}) by key, unsigned and
   * stable: an LSD radix sort that skips every byte on which all keys agree (most do: tickets are
   * dense and window opcodes few).
   */
  private void sort() {
    if (order.length < size) {
      sortKeys = new long[size];
      sortKeysSpare = new long[size];
      order = new int[size];
      orderSpare = new int[size];
    }
    long differing = 0;
    for (int i = 0; i < size; i++) {
      sortKeys[i] = keys[i];
      order[i] = i;
      differing |= keys[i] ^ keys[0];
    }
    for (int shift = 0; shift < Long.SIZE; shift += RADIX_BITS) {
      if (((differing >>> shift) & (RADIX - 1)) != 0) {
        radixPass(shift);
      }
    }
  }

  private void radixPass(int shift) {
    Arrays.fill(digitStart, 0);
    for (int i = 0; i < size; i++) {
      digitStart[digit(sortKeys[i], shift)]++;
    }
    for (int digit = 0, start = 0; digit < RADIX; digit++) {
      int count = digitStart[digit];
      digitStart[digit] = start;
      start += count;
    }
    for (int i = 0; i < size; i++) {
      int at = digitStart[digit(sortKeys[i], shift)]++;
      sortKeysSpare[at] = sortKeys[i];
      orderSpare[at] = order[i];
    }
    long[] keysNow = sortKeysSpare;
    sortKeysSpare = sortKeys;
    sortKeys = keysNow;
    int[] orderNow = orderSpare;
    orderSpare = order;
    order = orderNow;
  }

  private static int digit(long key, int shift) {
    return (int) (key >>> shift) & (RADIX - 1);
  }
}
