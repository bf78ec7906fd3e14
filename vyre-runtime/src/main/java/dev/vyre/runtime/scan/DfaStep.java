package dev.vyre.runtime.scan;

import static dev.vyre.runtime.scan.DfaTableLayout.ACCEPT_FLAG;
import static dev.vyre.runtime.scan.DfaTableLayout.ROW_MASK;

import dev.vyre.driver.Unsigned;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The reference semantics of opcode DFA_STEP (6); the reference backend calls {@link #run} and the
 * CUDA kernel mirrors it. Arguments are laid out as {@link DfaStepArgs} says.
 *
 * <p>Semantics. Let {@code T} be the DFA table, {@code C = T.class_count} and {@code row = start *
 * C}. For each byte {@code b = input[off + i]}, {@code i = 0 .. len-1}, in order: {@code t =
 * T.transitions[row + T.class_map[b]]}, {@code row = t & ROW_MASK}; if {@code t} carries
 * ACCEPT_FLAG and {@code i + 1 > report_from}, then for each pattern id {@code p} in the accept list
 * of state {@code row / C}, append the hit {@code (input_id, base_offset + i + 1 - length[p], p)}
 * to the hit buffer: {@code k = atomicAdd(cursor, 1)}; write record {@code k} only if {@code k <
 * capacity}. The result is the final state {@code row / C}, to pass as the start state of the next
 * range of the same input. Offsets are u64 with wrapping arithmetic (a start state that is not the
 * start of a match's first byte may produce a start before {@code base_offset}); records land in
 * unspecified order.
 *
 * <p>Faults (negative results; nothing is written): the range is not inside the input
 * ({@link #FAULT_INPUT_RANGE}), the table header is inconsistent with itself or the table's length
 * ({@link #FAULT_DFA_TABLE}), the start state is not below state_count ({@link
 * #FAULT_START_STATE}), the hit buffer is shorter than its capacity says, read-only or not 4-byte
 * aligned ({@link #FAULT_HIT_BUFFER}), {@code base_offset + len} overflows u64 ({@link
 * #FAULT_BASE_OFFSET}). The table's content (class ids, rows, accept lists) is checked once, by
 * {@link DfaTableLayout#validate}, when it is registered as a resource; here a corrupted content
 * word can still only raise {@link IndexOutOfBoundsException} from the segment, never touch other
 * memory.
 *
 * <p>Allocation-free: the hot loop makes one table load per byte (premultiplied rows) and tests the
 * accept flag by sign, so the accept lists are read only on a hit.
 */
public final class DfaStep {

  public static final int FAULT_INPUT_RANGE = -1;
  public static final int FAULT_DFA_TABLE = -2;
  public static final int FAULT_START_STATE = -3;
  public static final int FAULT_HIT_BUFFER = -4;
  public static final int FAULT_BASE_OFFSET = -5;

  private static final ValueLayout.OfInt WORD = WireWords.WORD;
  private static final long CLASS_MAP_BYTE = DfaTableLayout.CLASS_MAP_BASE * 4L;
  private static final long TRANSITION_BYTE = DfaTableLayout.TRANSITION_BASE * 4L;

  private DfaStep() {}

  /**
   * Scans {@code input[off, off + len)} from {@code startState} and appends hits; see the class
   * comment.
   *
   * @return the final state, or a negative {@code FAULT_*} code
   */
  public static int run(MemorySegment input, long off, long len, MemorySegment dfa, int startState,
      MemorySegment hits, int inputId, long baseOffset, long reportFrom) {
    if (off < 0 || len < 0 || off > input.byteSize() - len) {
      return FAULT_INPUT_RANGE;
    }
    if (dfa.byteSize() < DfaTableLayout.HEADER_WORDS * 4L || DfaTableLayout.headerProblem(dfa) >= 0) {
      return FAULT_DFA_TABLE;
    }
    int classes = WireWords.get(dfa, DfaTableLayout.CLASS_COUNT_WORD);
    if (Integer.compareUnsigned(startState, WireWords.get(dfa, DfaTableLayout.STATE_COUNT_WORD)) >= 0) {
      return FAULT_START_STATE;
    }
    if (hits.isReadOnly() || hits.maxByteAlignment() < 4 || hits.byteSize() < HitBufferLayout.HEADER_WORDS * 4L
        || HitBufferLayout.byteSize(HitBufferLayout.capacity(hits)) > hits.byteSize()) {
      return FAULT_HIT_BUFFER;
    }
    if (Unsigned.addOverflows(baseOffset, len)) {
      return FAULT_BASE_OFFSET;
    }
    int row = startState * classes;
    long end = off + len;
    for (long at = off; at < end; at++) {
      int b = input.get(ValueLayout.JAVA_BYTE, at) & 0xFF;
      int t = dfa.get(WORD, TRANSITION_BYTE + ((long) (row + dfa.get(WORD, CLASS_MAP_BYTE + (b << 2))) << 2));
      row = t & ROW_MASK;
      if ((t & ACCEPT_FLAG) != 0 && at - off + 1 > reportFrom) {
        report(dfa, Integer.toUnsignedLong(row) / classes, hits, inputId, baseOffset + (at - off + 1));
      }
    }
    return row / classes;
  }

  /** Appends one hit per pattern that ends at {@code endOffset} in {@code state}. */
  private static void report(MemorySegment dfa, long state, MemorySegment hits, int inputId, long endOffset) {
    long offsetsBase = Unsigned.u32(WireWords.get(dfa, DfaTableLayout.ACCEPT_OFFSETS_BASE_WORD));
    long idsBase = Unsigned.u32(WireWords.get(dfa, DfaTableLayout.ACCEPT_IDS_BASE_WORD));
    long lengthsBase = Unsigned.u32(WireWords.get(dfa, DfaTableLayout.PATTERN_LENGTHS_BASE_WORD));
    long from = Unsigned.u32(WireWords.get(dfa, offsetsBase + state));
    long to = Unsigned.u32(WireWords.get(dfa, offsetsBase + state + 1));
    int capacity = WireWords.get(hits, HitBufferLayout.CAPACITY_WORD);
    for (long a = from; a < to; a++) {
      int patternId = WireWords.get(dfa, idsBase + a);
      long start = endOffset - Unsigned.u32(WireWords.get(dfa, lengthsBase + patternId));
      // The claim is the only synchronisation among appenders; the record itself is published to
      // the host by the backend's release store of the slot's DONE status.
      int index = (int) WireWords.ATOMIC_WORD.getAndAdd(hits, (long) HitBufferLayout.CURSOR_WORD * 4, 1);
      if (Integer.compareUnsigned(index, capacity) < 0) {
        long record = HitBufferLayout.recordWord(Unsigned.u32(index), 0);
        WireWords.set(hits, record + HitBufferLayout.INPUT_ID_FIELD, inputId);
        WireWords.set(hits, record + HitBufferLayout.START_LO_FIELD, (int) start);
        WireWords.set(hits, record + HitBufferLayout.START_HI_FIELD, (int) (start >>> 32));
        WireWords.set(hits, record + HitBufferLayout.PATTERN_ID_FIELD, patternId);
      }
    }
  }
}
