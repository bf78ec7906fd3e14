package dev.vyre.runtime.telemetry;

import dev.vyre.runtime.wire.SlotLayout;
import java.util.Arrays;

/**
 * Per-(ticket, opcode) route-window counters gathered during one ring scan: an open-addressing
 * table over reused primitive arrays, so grouping allocates nothing once it has grown to the
 * largest window count seen.
 */
final class WindowAccumulators {

  static final int TENANT = 0;
  static final int REQUIRED = 1;
  static final int LOOKAHEAD = 2;
  /** Status counters follow: PUBLISHED (1) at field 3 ... FAULT (7) at field 9. */
  private static final int STATUS_FIELD_OFFSET = 2;
  static final int FIELDS = STATUS_FIELD_OFFSET + SlotLayout.STATUS_FAULT + 1;

  private static final int INITIAL_TABLE = 16;

  private long[] keys = new long[INITIAL_TABLE / 2];
  private int[] counters = new int[INITIAL_TABLE / 2 * FIELDS];
  /** Entry index + 1 per table cell; 0 marks a free cell. */
  private int[] table = new int[INITIAL_TABLE];
  private long[] sortedKeys = new long[0];
  private int size;

  void clear() {
    if (size > 0) {
      Arrays.fill(table, 0);
      size = 0;
    }
  }

  int size() {
    return size;
  }

  /** Table capacity in windows, for reuse checks. */
  int capacity() {
    return keys.length;
  }

  /** Counts one slot into the window (ticket, opcode); the first slot seen sets the tenant. */
  void add(int ticket, int opcode, int tenant, int classTag, int status) {
    long key = Integer.toUnsignedLong(ticket) << 32 | Integer.toUnsignedLong(opcode);
    int base = entryOf(key, tenant) * FIELDS;
    if (classTag == 0) {
      counters[base + REQUIRED]++;
    } else if (classTag == 1) {
      counters[base + LOOKAHEAD]++;
    }
    if (status >= SlotLayout.STATUS_PUBLISHED && status <= SlotLayout.STATUS_FAULT) {
      counters[base + STATUS_FIELD_OFFSET + status]++;
    }
  }

  /**
   * The windows sorted by (ticket, opcode): fills and returns the reused key array, of which the
   * first {@link #size()} entries are valid. Pass each key to {@link #window}.
   */
  long[] sortedKeys() {
    if (sortedKeys.length < size) {
      sortedKeys = new long[keys.length];
    }
    // Keys are (ticket << 32 | opcode); flipping the sign bit sorts them unsigned, i.e. by ticket then opcode.
    for (int i = 0; i < size; i++) {
      sortedKeys[i] = keys[i] ^ Long.MIN_VALUE;
    }
    Arrays.sort(sortedKeys, 0, size);
    for (int i = 0; i < size; i++) {
      sortedKeys[i] ^= Long.MIN_VALUE;
    }
    return sortedKeys;
  }

  WindowTelemetry window(long key) {
    int base = find(key) * FIELDS;
    return new WindowTelemetry(key >>> 32, u32(base + TENANT), key & 0xFFFF_FFFFL,
        u32(base + REQUIRED), u32(base + LOOKAHEAD), statusCount(base, SlotLayout.STATUS_PUBLISHED),
        statusCount(base, SlotLayout.STATUS_CLAIMED), statusCount(base, SlotLayout.STATUS_DONE),
        statusCount(base, SlotLayout.STATUS_WAIT_IO), statusCount(base, SlotLayout.STATUS_YIELD),
        statusCount(base, SlotLayout.STATUS_REQUEUE), statusCount(base, SlotLayout.STATUS_FAULT));
  }

  private long statusCount(int base, int status) {
    return u32(base + STATUS_FIELD_OFFSET + status);
  }

  private long u32(int field) {
    return Integer.toUnsignedLong(counters[field]);
  }

  private int find(long key) {
    int mask = table.length - 1;
    for (int cell = hash(key) & mask; ; cell = (cell + 1) & mask) {
      int entry = table[cell] - 1;
      if (keys[entry] == key) {
        return entry;
      }
    }
  }

  private int entryOf(long key, int tenant) {
    int mask = table.length - 1;
    int cell = hash(key) & mask;
    while (table[cell] != 0) {
      int entry = table[cell] - 1;
      if (keys[entry] == key) {
        return entry;
      }
      cell = (cell + 1) & mask;
    }
    if (size == keys.length) {
      grow();
      return entryOf(key, tenant);
    }
    int entry = size++;
    keys[entry] = key;
    Arrays.fill(counters, entry * FIELDS, entry * FIELDS + FIELDS, 0);
    counters[entry * FIELDS + TENANT] = tenant;
    table[cell] = entry + 1;
    return entry;
  }

  /** Doubles the entry arrays and the table (kept at twice the entries, so probes stay short). */
  private void grow() {
    keys = Arrays.copyOf(keys, keys.length * 2);
    counters = Arrays.copyOf(counters, keys.length * FIELDS);
    table = new int[table.length * 2];
    int mask = table.length - 1;
    for (int entry = 0; entry < size; entry++) {
      int cell = hash(keys[entry]) & mask;
      while (table[cell] != 0) {
        cell = (cell + 1) & mask;
      }
      table[cell] = entry + 1;
    }
  }

  private static int hash(long key) {
    long mixed = key * 0x9E37_79B9_7F4A_7C15L;
    return (int) (mixed >>> 32);
  }
}
