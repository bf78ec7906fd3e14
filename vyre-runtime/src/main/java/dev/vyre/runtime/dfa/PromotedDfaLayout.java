package dev.vyre.runtime.dfa;

import dev.vyre.driver.error.ProtocolException;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Wire layout of a promoted DFA table ("VPDF"): the compact form of a {@link DfaTableLayout} table
 * that a kernel keeps close to its workers once the launch policy promotes the table (docs/POLICY.md,
 * "Promotion"): on a GPU in each block's shared memory, on the reference backend as Java arrays.
 * Little-endian:
 *
 * <pre>
 * bytes 0..31     header, u32 words: 0 magic 0x46445056 ("VPDF"), 1 version 1, 2 state_count,
 *                 3 class_count, 4 start_state, 5 total_bytes, 6 and 7 reserved, 0
 * bytes 32..287   class map: u8 class id of each byte value, &lt; class_count
 * bytes 288..     accept counts: u16 per state, the length of the state's accept list in the VDFA
 * transitions     at the next multiple of 16 bytes: u16[state_count * class_count], row-major by
 *                 state: next_state | ACCEPT_FLAG when next_state's accept list is non-empty
 * total_bytes     the end of the transitions rounded up to 16
 * </pre>
 *
 * <p>The pattern ids and lengths of a hit stay in the VDFA table (read only on a hit), so a step
 * in record mode reads both tables and one in count mode only this one. A table fits when it has at
 * most {@link #MAX_STATES} states, no state accepts more than {@link #MAX_ACCEPTS} patterns and the
 * whole layout is at most {@link #MAX_BYTES}; {@link #compact} says which rule a table breaks.
 */
public final class PromotedDfaLayout {

  public static final int MAGIC = 0x4644_5056;
  public static final int VERSION = 1;

  public static final int MAGIC_WORD = 0;
  public static final int VERSION_WORD = 1;
  public static final int STATE_COUNT_WORD = 2;
  public static final int CLASS_COUNT_WORD = 3;
  public static final int START_STATE_WORD = 4;
  public static final int TOTAL_BYTES_WORD = 5;
  public static final int HEADER_BYTES = 32;

  public static final int CLASS_MAP_OFFSET = HEADER_BYTES;
  public static final int CLASS_MAP_BYTES = 256;
  public static final int ACCEPT_COUNTS_OFFSET = CLASS_MAP_OFFSET + CLASS_MAP_BYTES;
  /** The transitions, and the whole table, start and end on this many bytes. */
  public static final int ALIGNMENT = 16;

  /** Set in a transition when the state it leads to accepts at least one pattern. */
  public static final int ACCEPT_FLAG = 0x8000;
  /** The next state of a transition. */
  public static final int STATE_MASK = 0x7FFF;
  /** The per-block shared-memory budget the GPU path reserves for one promoted table (96 KiB). */
  public static final int MAX_BYTES = 98_304;
  /** States a u16 transition can name beside its accept flag. */
  public static final int MAX_STATES = STATE_MASK;
  /** Patterns one state may accept: its count is a u16. */
  public static final int MAX_ACCEPTS = 0xFFFF;

  private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final String FIX = "build the promoted table with PromotedDfaLayout.compact from the table at the same handle";

  private PromotedDfaLayout() {}

  /** Why a table cannot be promoted: each names the limit it breaks. */
  public enum Refusal {
    TOO_MANY_STATES, TOO_MANY_BYTES, TOO_MANY_ACCEPTS
  }

  /** What {@link #compact} makes of a VDFA table: the promoted bytes, or why there are none. */
  public sealed interface Compaction {}

  /** The compact table, {@link #totalBytes} long, on the heap. */
  public record Compact(MemorySegment table) implements Compaction {}

  /** Not promotable: the rule broken and a sentence with the table's figures. */
  public record NotPromotable(Refusal refusal, String reason) implements Compaction {}

  /** Byte offset of the transitions of a table of {@code stateCount} states. */
  public static long transitionsOffset(long stateCount) {
    return alignUp(ACCEPT_COUNTS_OFFSET + 2 * stateCount);
  }

  /** Byte offset of the transition of {@code state} on byte class {@code classId}. */
  public static long transitionOffset(long stateCount, long classCount, long state, long classId) {
    return transitionsOffset(stateCount) + 2 * (state * classCount + classId);
  }

  public static long totalBytes(long stateCount, long classCount) {
    return alignUp(transitionsOffset(stateCount) + 2 * stateCount * classCount);
  }

  private static long alignUp(long bytes) {
    return (bytes + ALIGNMENT - 1) & -ALIGNMENT;
  }

  /**
   * The promoted form of a VDFA table that {@link DfaTableLayout#validate} accepted, or the rule
   * that keeps it from being promoted. O(table size); allocates the result on the heap.
   */
  public static Compaction compact(MemorySegment vdfa) {
    int states = Words.get(vdfa, DfaTableLayout.STATE_COUNT_WORD);
    int classes = Words.get(vdfa, DfaTableLayout.CLASS_COUNT_WORD);
    if (states > MAX_STATES) {
      return new NotPromotable(Refusal.TOO_MANY_STATES, states + " states, more than the " + MAX_STATES
          + " a u16 transition names");
    }
    long total = totalBytes(states, classes);
    if (total > MAX_BYTES) {
      return new NotPromotable(Refusal.TOO_MANY_BYTES, states + " states x " + classes + " byte classes take " + total
          + " bytes, more than the " + MAX_BYTES + " a block reserves");
    }
    long offsets = DfaTableLayout.acceptOffsetsBase(states, classes);
    for (int s = 0; s < states; s++) {
      int accepts = Words.get(vdfa, offsets + s + 1) - Words.get(vdfa, offsets + s);
      if (accepts > MAX_ACCEPTS) {
        return new NotPromotable(Refusal.TOO_MANY_ACCEPTS, "state " + s + " accepts " + accepts + " patterns, more than "
            + MAX_ACCEPTS);
      }
    }
    MemorySegment table = Arena.ofAuto().allocate(total, ALIGNMENT);
    Words.set(table, MAGIC_WORD, MAGIC);
    Words.set(table, VERSION_WORD, VERSION);
    Words.set(table, STATE_COUNT_WORD, states);
    Words.set(table, CLASS_COUNT_WORD, classes);
    Words.set(table, START_STATE_WORD, Words.get(vdfa, DfaTableLayout.START_STATE_WORD));
    Words.set(table, TOTAL_BYTES_WORD, (int) total);
    for (int b = 0; b < CLASS_MAP_BYTES; b++) {
      table.set(ValueLayout.JAVA_BYTE, CLASS_MAP_OFFSET + b, (byte) Words.get(vdfa, DfaTableLayout.CLASS_MAP_BASE + b));
    }
    for (int s = 0; s < states; s++) {
      table.set(U16, ACCEPT_COUNTS_OFFSET + 2L * s, (short) (Words.get(vdfa, offsets + s + 1) - Words.get(vdfa, offsets + s)));
    }
    long base = transitionsOffset(states);
    for (long i = 0; i < (long) states * classes; i++) {
      int t = Words.get(vdfa, DfaTableLayout.TRANSITION_BASE + i);
      int next = (t & DfaTableLayout.ROW_MASK) / classes;
      table.set(U16, base + 2 * i, (short) (next | (t < 0 ? ACCEPT_FLAG : 0)));
    }
    return new Compact(table);
  }

  /** The u16 at {@code byteOffset}: an accept count or a transition. */
  public static int u16(MemorySegment table, long byteOffset) {
    return table.get(U16, byteOffset) & 0xFFFF;
  }

  /**
   * Checks that {@code table} is the promoted form of {@code vdfa}, a table {@link
   * DfaTableLayout#validate} accepted: the header, and every class id, accept count and transition
   * against the VDFA's. O(table size); a kernel runs it once per promotion.
   *
   * @param buffer names the table in the error
   * @throws ProtocolException naming the first byte offset that differs
   */
  public static void requireCompactOf(MemorySegment table, MemorySegment vdfa, String buffer) {
    long byteLen = table.byteSize();
    if (byteLen < HEADER_BYTES) {
      throw ProtocolException.missingWord(buffer, HEADER_BYTES / 4 - 1, byteLen, FIX);
    }
    Compaction expected = compact(vdfa);
    if (!(expected instanceof Compact(MemorySegment want))) {
      throw ProtocolException.invalidWord(buffer, STATE_COUNT_WORD, Words.get(table, STATE_COUNT_WORD), byteLen,
          "the VDFA table is not promotable: " + ((NotPromotable) expected).reason(), FIX);
    }
    long differs = want.mismatch(table);
    if (differs >= 0) {
      long word = Math.min(differs, byteLen - 4) / 4;
      throw ProtocolException.invalidWord(buffer, word, byteLen >= 4 ? Words.get(table, word) : 0, byteLen,
          differs >= want.byteSize() || differs >= byteLen ? "the promoted table must be " + want.byteSize() + " bytes"
              : "byte " + differs + " differs from the promoted form of the VDFA table at the same handle", FIX);
    }
  }
}
