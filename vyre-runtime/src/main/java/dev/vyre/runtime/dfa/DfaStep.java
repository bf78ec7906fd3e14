package dev.vyre.runtime.dfa;

import static dev.vyre.runtime.dfa.DfaTableLayout.ROW_MASK;

import dev.vyre.driver.Unsigned;
import dev.vyre.runtime.wire.FaultReason;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

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
 * range of the same input. Offsets are u64 with wrapping arithmetic (a start state carried over
 * from an earlier range yields starts before {@code base_offset}, as it should); records land in
 * unspecified order. In count mode ({@link DfaStepArgs#MODE_COUNT}) no record is written: the step
 * adds the number of hits it would have appended to counter {@code input_id} of a {@link
 * MatchCountLayout} resource, with one atomic add at the step's end on both backends.
 *
 * <p>Faults (negative results; nothing is written): the range is not inside the input
 * ({@link #FAULT_INPUT_RANGE}), the table header is inconsistent with itself or the table's length
 * ({@link #FAULT_DFA_TABLE}), the start state is not below state_count ({@link
 * #FAULT_START_STATE}), the hit buffer is shorter than its capacity says, read-only or not 4-byte
 * aligned ({@link #FAULT_HIT_BUFFER}; in count mode: a count resource shorter than its counters,
 * read-only, not 8-byte aligned or without counter {@code input_id}; and any other mode), {@code
 * base_offset + len} overflows u64 ({@link #FAULT_BASE_OFFSET}). Before calling this a backend faults a step whose input, table or hit
 * handle names no resource, or whose hit buffer is not a DEVICE resource (RESOURCE_OUT_OF_RANGE):
 * on a GPU the cursor is bumped with a device atomic, and atomics on mapped host memory are not
 * atomic (nor allowed at all without PCIe atomics), so a HOST_MAPPED hit buffer is refused on every
 * backend alike (docs/DESIGN.md, "DFA_STEP"). The table's content (class ids, rows, accept lists)
 * is checked once, by {@link DfaTableLayout#validate}, when it is registered as a resource; here a
 * corrupted content word can still only raise {@link IndexOutOfBoundsException} from the segment,
 * never touch other memory.
 *
 * <p>Allocation-free. Per byte the loop loads the byte's class (independent of the state) and one
 * premultiplied transition, the only load on the state's dependency chain, and tests the accept
 * flag by sign, so accept lists are read only on a hit. Ranges of at least 8 x 256 bytes run as
 * eight interleaved lanes ({@code scanLanes}) so that eight chains overlap (the CUDA kernel scans its
 * range in one chain: a thread there has the warps of its SM beside it). Either way the hit set and
 * the final state are exactly those of the sequential definition above.
 */
public final class DfaStep {

  public static final int FAULT_INPUT_RANGE = -1;
  public static final int FAULT_DFA_TABLE = -2;
  public static final int FAULT_START_STATE = -3;
  public static final int FAULT_HIT_BUFFER = -4;
  public static final int FAULT_BASE_OFFSET = -5;

  static final int LANES = 8;
  static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfInt WORD = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  /** Below this many bytes per lane the lanes' restart overlap is not worth it. */
  private static final long MIN_LANE_BYTES = 256;
  /** A count-mode step's hits so far, one per thread: added to the counter once, at the step's end. */
  private static final ThreadLocal<long[]> TALLY = ThreadLocal.withInitial(() -> new long[1]);
  /** This thread's copy of a step's byte-to-class map (heap reads the JIT checks once a loop, not once a byte). */
  private static final ThreadLocal<int[]> CLASS_MAP = ThreadLocal.withInitial(() -> new int[256]);

  private DfaStep() {}

  /** Whether a range of {@code LANES} spans of {@code span} bytes runs as lanes, given the restart overlap. */
  static boolean inLanes(long span, long overlap) {
    return span >= MIN_LANE_BYTES && span >= 4 * overlap;
  }

  /** The reason a backend writes into a slot that {@link #run} faulted; NONE for a final state. */
  public static FaultReason faultReason(int result) {
    return switch (result) {
      case FAULT_DFA_TABLE, FAULT_START_STATE -> FaultReason.MALFORMED_TABLE;
      case FAULT_INPUT_RANGE, FAULT_HIT_BUFFER, FAULT_BASE_OFFSET -> FaultReason.RESOURCE_OUT_OF_RANGE;
      default -> result >= 0 ? FaultReason.NONE : FaultReason.HANDLER_FAILED;
    };
  }

  /**
   * Scans {@code input[off, off + len)} from {@code startState} and appends hits; see the class
   * comment.
   *
   * @return the final state, or a negative {@code FAULT_*} code
   */
  public static int run(MemorySegment input, long off, long len, MemorySegment dfa, int startState,
      MemorySegment hits, int inputId, long baseOffset, long reportFrom) {
    return run(input, off, len, dfa, startState, hits, inputId, baseOffset, reportFrom, DfaStepArgs.MODE_RECORDS);
  }

  /**
   * Scans {@code input[off, off + len)} from {@code startState} and appends hits, or in {@link
   * DfaStepArgs#MODE_COUNT} counts them into {@code hits}'s counter {@code inputId}; see the class comment.
   *
   * @return the final state, or a negative {@code FAULT_*} code
   */
  public static int run(MemorySegment input, long off, long len, MemorySegment dfa, int startState,
      MemorySegment hits, int inputId, long baseOffset, long reportFrom, int mode) {
    if (off < 0 || len < 0 || off > input.byteSize() - len) {
      return FAULT_INPUT_RANGE;
    }
    if (dfa.byteSize() < DfaTableLayout.HEADER_WORDS * 4L || DfaTableLayout.headerProblem(dfa) >= 0) {
      return FAULT_DFA_TABLE;
    }
    int classes = word(dfa, DfaTableLayout.CLASS_COUNT_WORD);
    int fault = stepFault(startState, word(dfa, DfaTableLayout.STATE_COUNT_WORD), hits, inputId, baseOffset, len, mode);
    if (fault < 0) {
      return fault;
    }
    boolean counting = mode == DfaStepArgs.MODE_COUNT;
    int rootRow = word(dfa, DfaTableLayout.START_STATE_WORD) * classes;
    long overlap = Unsigned.u32(word(dfa, DfaTableLayout.MAX_PATTERN_LEN_WORD)) - 1;
    long minEnd = off + Math.clamp(reportFrom, 0, len);
    long span = len / LANES;
    long[] tally = counting ? tally() : null;
    int row = inLanes(span, overlap)
        ? scanLanes(input, off, span, off + len, overlap, dfa, classMap(dfa), startState * classes, rootRow, classes,
            hits, inputId, baseOffset - off, minEnd, tally)
        : scan(input, off, off + len, dfa, startState * classes, classes, hits, inputId, baseOffset - off, minEnd,
            tally);
    if (counting) {
      addCount(hits, inputId, tally[0]);
    }
    return row / classes;
  }

  /**
   * The fault of a step whose input range and table are sound, in the order {@link #run} checks:
   * the start state, the hit buffer or count resource, the base offset; 0 when there is none.
   * {@link PromotedDfa} checks the same, so both paths fault alike.
   */
  static int stepFault(int startState, int stateCount, MemorySegment hits, int inputId, long baseOffset, long len,
      int mode) {
    if (Integer.compareUnsigned(startState, stateCount) >= 0) {
      return FAULT_START_STATE;
    }
    boolean counting = mode == DfaStepArgs.MODE_COUNT;
    if (counting ? !countsOk(hits, inputId) : mode != DfaStepArgs.MODE_RECORDS || !recordsOk(hits)) {
      return FAULT_HIT_BUFFER;
    }
    if (Unsigned.addOverflows(baseOffset, len)) {
      return FAULT_BASE_OFFSET;
    }
    return 0;
  }

  /** Appends one hit record, when the buffer has room; the claim is the only synchronisation among appenders. */
  static void append(MemorySegment hits, int capacity, int inputId, long start, int patternId) {
    // The record itself is published to the host by the backend's release store of the slot's DONE status.
    int index = Words.getAndAdd(hits, HitBufferLayout.CURSOR_WORD, 1);
    if (Integer.compareUnsigned(index, capacity) < 0) {
      long record = HitBufferLayout.recordWord(Unsigned.u32(index), 0);
      setWord(hits, record + HitBufferLayout.INPUT_ID_FIELD, inputId);
      setWord(hits, record + HitBufferLayout.START_LO_FIELD, (int) start);
      setWord(hits, record + HitBufferLayout.START_HI_FIELD, (int) (start >>> 32));
      setWord(hits, record + HitBufferLayout.PATTERN_ID_FIELD, patternId);
    }
  }

  /** This thread's count-mode tally, zeroed. */
  static long[] tally() {
    long[] tally = TALLY.get();
    tally[0] = 0;
    return tally;
  }

  /** Adds a count-mode step's hits to its counter, once, at the step's end. */
  static void addCount(MemorySegment counts, int inputId, long hits) {
    if (hits != 0) {
      Words.getAndAddLong(counts, MatchCountLayout.counterWord(Unsigned.u32(inputId)), hits);
    }
  }

  private static boolean recordsOk(MemorySegment hits) {
    return !hits.isReadOnly() && hits.maxByteAlignment() >= 4 && hits.byteSize() >= HitBufferLayout.HEADER_WORDS * 4L
        && HitBufferLayout.byteSize(HitBufferLayout.capacity(hits)) <= hits.byteSize();
  }

  private static boolean countsOk(MemorySegment counts, int inputId) {
    return !counts.isReadOnly() && counts.maxByteAlignment() >= 8
        && counts.byteSize() >= MatchCountLayout.HEADER_WORDS * 4L
        && MatchCountLayout.byteSize(MatchCountLayout.counters(counts)) <= counts.byteSize()
        && Unsigned.u32(inputId) < MatchCountLayout.counters(counts);
  }

  /**
   * Scans {@code [from, to)} from {@code row}; reports a hit ending at input index {@code end} (exclusive)
   * when {@code end > minEnd}, with start {@code delta + end - length}. Returns the final row.
   */
  private static int scan(MemorySegment input, long from, long to, MemorySegment dfa, int row, int classes,
      MemorySegment hits, int inputId, long delta, long minEnd, long[] tally) {
    for (long at = from; at < to; at++) {
      int t = next(input, at, dfa, row);
      row = t & ROW_MASK;
      if (t < 0 && at + 1 > minEnd) {
        report(dfa, row / classes, hits, inputId, delta + at + 1, tally);
      }
    }
    return row;
  }

  /**
   * Eight interleaved scans, so that eight independent table-load chains overlap in the CPU instead
   * of one waiting on the latency of the last (eight beat four: docs/BENCHMARKS.md, "Twenty-second
   * session: eight DFA lanes on the CPU (dev VM)"). Lane 0 scans {@code [off, off+span)} from the given
   * row; lane k > 0 restarts at the root {@code overlap} bytes before {@code off + k*span} and
   * reports only matches ending after that point: the same argument as the scan's chunk planner, and
   * the last lane reads at least max_pattern_len bytes, so its final state is exact. The hit set
   * and final state equal a single sequential scan's.
   */
  private static int scanLanes(MemorySegment input, long off, long span, long end, long overlap, MemorySegment dfa,
      int[] classMap, int row, int rootRow, int classes, MemorySegment hits, int inputId, long delta, long minEnd,
      long[] tally) {
    long s1 = off + span - overlap;
    long s2 = s1 + span;
    long s3 = s2 + span;
    long s4 = s3 + span;
    long s5 = s4 + span;
    long s6 = s5 + span;
    long s7 = s6 + span;
    long m1 = Math.max(minEnd, off + span);
    long m2 = Math.max(minEnd, off + 2 * span);
    long m3 = Math.max(minEnd, off + 3 * span);
    long m4 = Math.max(minEnd, off + 4 * span);
    long m5 = Math.max(minEnd, off + 5 * span);
    long m6 = Math.max(minEnd, off + 6 * span);
    long m7 = Math.max(minEnd, off + 7 * span);
    int r0 = row;
    int r1 = rootRow;
    int r2 = rootRow;
    int r3 = rootRow;
    int r4 = rootRow;
    int r5 = rootRow;
    int r6 = rootRow;
    int r7 = rootRow;
    long blocks = span & ~7L;
    for (long i = 0; i < blocks; i += 8) {
      long w0 = input.get(LONG, off + i);
      long w1 = input.get(LONG, s1 + i);
      long w2 = input.get(LONG, s2 + i);
      long w3 = input.get(LONG, s3 + i);
      long w4 = input.get(LONG, s4 + i);
      long w5 = input.get(LONG, s5 + i);
      long w6 = input.get(LONG, s6 + i);
      long w7 = input.get(LONG, s7 + i);
      for (int k = 0; k < 8; k++) {
        int shift = k << 3;
        int t0 = transition(dfa, r0, classMap[(int) (w0 >>> shift) & 0xFF]);
        int t1 = transition(dfa, r1, classMap[(int) (w1 >>> shift) & 0xFF]);
        int t2 = transition(dfa, r2, classMap[(int) (w2 >>> shift) & 0xFF]);
        int t3 = transition(dfa, r3, classMap[(int) (w3 >>> shift) & 0xFF]);
        int t4 = transition(dfa, r4, classMap[(int) (w4 >>> shift) & 0xFF]);
        int t5 = transition(dfa, r5, classMap[(int) (w5 >>> shift) & 0xFF]);
        int t6 = transition(dfa, r6, classMap[(int) (w6 >>> shift) & 0xFF]);
        int t7 = transition(dfa, r7, classMap[(int) (w7 >>> shift) & 0xFF]);
        r0 = t0 & ROW_MASK;
        r1 = t1 & ROW_MASK;
        r2 = t2 & ROW_MASK;
        r3 = t3 & ROW_MASK;
        r4 = t4 & ROW_MASK;
        r5 = t5 & ROW_MASK;
        r6 = t6 & ROW_MASK;
        r7 = t7 & ROW_MASK;
        if ((t0 | t1 | t2 | t3 | t4 | t5 | t6 | t7) < 0) {
          long e = i + k + 1;
          reportIf(t0, off + e, minEnd, dfa, r0 / classes, hits, inputId, delta, tally);
          reportIf(t1, s1 + e, m1, dfa, r1 / classes, hits, inputId, delta, tally);
          reportIf(t2, s2 + e, m2, dfa, r2 / classes, hits, inputId, delta, tally);
          reportIf(t3, s3 + e, m3, dfa, r3 / classes, hits, inputId, delta, tally);
          reportIf(t4, s4 + e, m4, dfa, r4 / classes, hits, inputId, delta, tally);
          reportIf(t5, s5 + e, m5, dfa, r5 / classes, hits, inputId, delta, tally);
          reportIf(t6, s6 + e, m6, dfa, r6 / classes, hits, inputId, delta, tally);
          reportIf(t7, s7 + e, m7, dfa, r7 / classes, hits, inputId, delta, tally);
        }
      }
    }
    r0 = scan(input, off + blocks, off + span, dfa, r0, classes, hits, inputId, delta, minEnd, tally);
    r1 = scan(input, s1 + blocks, s1 + span, dfa, r1, classes, hits, inputId, delta, m1, tally);
    r2 = scan(input, s2 + blocks, s2 + span, dfa, r2, classes, hits, inputId, delta, m2, tally);
    r3 = scan(input, s3 + blocks, s3 + span, dfa, r3, classes, hits, inputId, delta, m3, tally);
    r4 = scan(input, s4 + blocks, s4 + span, dfa, r4, classes, hits, inputId, delta, m4, tally);
    r5 = scan(input, s5 + blocks, s5 + span, dfa, r5, classes, hits, inputId, delta, m5, tally);
    r6 = scan(input, s6 + blocks, s6 + span, dfa, r6, classes, hits, inputId, delta, m6, tally);
    r7 = scan(input, s7 + blocks, s7 + span, dfa, r7, classes, hits, inputId, delta, m7, tally);
    scan(input, s1 + span, off + 2 * span, dfa, r1, classes, hits, inputId, delta, m1, tally);
    scan(input, s2 + span, off + 3 * span, dfa, r2, classes, hits, inputId, delta, m2, tally);
    scan(input, s3 + span, off + 4 * span, dfa, r3, classes, hits, inputId, delta, m3, tally);
    scan(input, s4 + span, off + 5 * span, dfa, r4, classes, hits, inputId, delta, m4, tally);
    scan(input, s5 + span, off + 6 * span, dfa, r5, classes, hits, inputId, delta, m5, tally);
    scan(input, s6 + span, off + 7 * span, dfa, r6, classes, hits, inputId, delta, m6, tally);
    return scan(input, s7 + span, end, dfa, r7, classes, hits, inputId, delta, m7, tally);
  }

  /** The transition word for the byte at {@code at} from {@code row}. */
  private static int next(MemorySegment input, long at, MemorySegment dfa, int row) {
    return nextByte(dfa, row, input.get(ValueLayout.JAVA_BYTE, at) & 0xFF);
  }

  private static int nextByte(MemorySegment dfa, int row, int b) {
    return transition(dfa, row, word(dfa, DfaTableLayout.CLASS_MAP_BASE + b));
  }

  private static int transition(MemorySegment dfa, int row, int classId) {
    return word(dfa, DfaTableLayout.TRANSITION_BASE + (long) row + classId);
  }

  /** This thread's copy of {@code dfa}'s class map. */
  private static int[] classMap(MemorySegment dfa) {
    int[] map = CLASS_MAP.get();
    for (int b = 0; b < map.length; b++) {
      map[b] = word(dfa, DfaTableLayout.CLASS_MAP_BASE + b);
    }
    return map;
  }

  /**
   * A word of the table or hit buffer. Not {@link Words#get}: the JIT keeps one type profile per call
   * site, and the one in that shared method also sees heap segments (wire decoding elsewhere), which
   * left every table read of this loop an uninlined memory-access call; here the profile is this
   * class's own.
   */
  private static int word(MemorySegment segment, long index) {
    return segment.get(WORD, index * 4);
  }

  private static void setWord(MemorySegment segment, long index, int value) {
    segment.set(WORD, index * 4, value);
  }

  private static void reportIf(int transition, long end, long minEnd, MemorySegment dfa, int state, MemorySegment hits,
      int inputId, long delta, long[] tally) {
    if (transition < 0 && end > minEnd) {
      report(dfa, state, hits, inputId, delta + end, tally);
    }
  }

  /** Appends one hit per pattern that ends at {@code endOffset} in {@code state}, or adds them to {@code tally[0]}. */
  private static void report(MemorySegment dfa, int state, MemorySegment hits, int inputId, long endOffset,
      long[] tally) {
    long offsetsBase = Unsigned.u32(word(dfa, DfaTableLayout.ACCEPT_OFFSETS_BASE_WORD));
    long from = Unsigned.u32(word(dfa, offsetsBase + state));
    long to = Unsigned.u32(word(dfa, offsetsBase + state + 1));
    if (tally != null) {
      tally[0] += to - from;
      return;
    }
    long idsBase = Unsigned.u32(word(dfa, DfaTableLayout.ACCEPT_IDS_BASE_WORD));
    long lengthsBase = Unsigned.u32(word(dfa, DfaTableLayout.PATTERN_LENGTHS_BASE_WORD));
    int capacity = word(hits, HitBufferLayout.CAPACITY_WORD);
    for (long a = from; a < to; a++) {
      int patternId = word(dfa, idsBase + a);
      append(hits, capacity, inputId, endOffset - Unsigned.u32(word(dfa, lengthsBase + patternId)), patternId);
    }
  }
}
