package dev.vyre.runtime.dfa;

import dev.vyre.driver.Unsigned;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A promoted DFA table on the CPU: the {@link PromotedDfaLayout} bytes as Java arrays (u8 class map,
 * u16 transitions, u16 accept counts) and the VDFA's accept lists and pattern lengths, read once
 * when the table is promoted. {@link #run} is DFA_STEP over them: the same final state, faults and
 * hits as {@link DfaStep#run} over the VDFA table, the records of a step in the same order (the
 * same lanes, interleaved alike), the counts the same. Immutable; allocation-free per step.
 *
 * <p>Why it is faster: a byte costs a class-map load and one transition load from arrays a few
 * KiB long, where the interpreter reads u32 words of a table segment, each access checked against
 * the segment's bounds and liveness.
 */
public final class PromotedDfa {

  private final byte[] classMap;
  /** next_state | ACCEPT_FLAG, by state * classes + class: negative as a short when the flag is set. */
  private final short[] transitions;
  private final char[] acceptCounts;
  private final int[] acceptOffsets;
  private final int[] acceptIds;
  private final int[] patternLengths;
  private final int states;
  private final int classes;
  private final int rootState;
  /** max_pattern_len - 1: where a lane restarts before its span. */
  private final long overlap;

  private PromotedDfa(MemorySegment compact, MemorySegment vdfa) {
    this.states = Words.get(compact, PromotedDfaLayout.STATE_COUNT_WORD);
    this.classes = Words.get(compact, PromotedDfaLayout.CLASS_COUNT_WORD);
    this.rootState = Words.get(compact, PromotedDfaLayout.START_STATE_WORD);
    this.classMap = compact.asSlice(PromotedDfaLayout.CLASS_MAP_OFFSET, PromotedDfaLayout.CLASS_MAP_BYTES)
        .toArray(ValueLayout.JAVA_BYTE);
    this.acceptCounts = new char[states];
    for (int s = 0; s < states; s++) {
      acceptCounts[s] = (char) PromotedDfaLayout.u16(compact, PromotedDfaLayout.ACCEPT_COUNTS_OFFSET + 2L * s);
    }
    this.transitions = new short[states * classes];
    long base = PromotedDfaLayout.transitionsOffset(states);
    for (int i = 0; i < transitions.length; i++) {
      transitions[i] = (short) PromotedDfaLayout.u16(compact, base + 2L * i);
    }
    long offsetsBase = DfaTableLayout.acceptOffsetsBase(states, classes);
    long idsBase = DfaTableLayout.acceptIdsBase(states, classes);
    long lengthsBase = Words.get(vdfa, DfaTableLayout.PATTERN_LENGTHS_BASE_WORD);
    this.acceptOffsets = words(vdfa, offsetsBase, states + 1);
    this.acceptIds = words(vdfa, idsBase, (int) (lengthsBase - idsBase));
    this.patternLengths = words(vdfa, lengthsBase, Words.get(vdfa, DfaTableLayout.PATTERN_COUNT_WORD));
    this.overlap = Unsigned.u32(Words.get(vdfa, DfaTableLayout.MAX_PATTERN_LEN_WORD)) - 1;
  }

  /**
   * The promoted table {@code compact} as arrays, after checking that it is the promoted form of
   * {@code vdfa} ({@link PromotedDfaLayout#requireCompactOf}), a table {@link
   * DfaTableLayout#validate} accepted.
   *
   * @param buffer names the promoted table in the error
   * @throws dev.vyre.driver.error.ProtocolException when it is not
   */
  public static PromotedDfa of(MemorySegment compact, MemorySegment vdfa, String buffer) {
    PromotedDfaLayout.requireCompactOf(compact, vdfa, buffer);
    return new PromotedDfa(compact, vdfa);
  }

  private static int[] words(MemorySegment segment, long word, int count) {
    int[] words = new int[count];
    for (int i = 0; i < count; i++) {
      words[i] = Words.get(segment, word + i);
    }
    return words;
  }

  public int stateCount() {
    return states;
  }

  /**
   * DFA_STEP over this table; the arguments and result are {@link DfaStep#run}'s without the table.
   *
   * @return the final state, or a negative {@code DfaStep.FAULT_*} code
   */
  public int run(MemorySegment input, long off, long len, int startState, MemorySegment hits, int inputId,
      long baseOffset, long reportFrom, int mode) {
    if (off < 0 || len < 0 || off > input.byteSize() - len) {
      return DfaStep.FAULT_INPUT_RANGE;
    }
    int fault = DfaStep.stepFault(startState, states, hits, inputId, baseOffset, len, mode);
    if (fault < 0) {
      return fault;
    }
    boolean counting = mode == DfaStepArgs.MODE_COUNT;
    long minEnd = off + Math.clamp(reportFrom, 0, len);
    long span = len / DfaStep.LANES;
    long[] tally = counting ? DfaStep.tally() : null;
    int capacity = counting ? 0 : Words.get(hits, HitBufferLayout.CAPACITY_WORD);
    long delta = baseOffset - off;
    int state = DfaStep.inLanes(span, overlap)
        ? scanLanes(input, off, span, off + len, startState, minEnd, hits, capacity, inputId, delta, tally)
        : scan(input, off, off + len, startState, minEnd, hits, capacity, inputId, delta, tally);
    if (counting) {
      DfaStep.addCount(hits, inputId, tally[0]);
    }
    return state;
  }

  private int next(int state, int b) {
    return transitions[state * classes + (classMap[b] & 0xFF)];
  }

  /** {@link DfaStep}'s sequential scan of {@code [from, to)} from {@code state}; returns the final state. */
  private int scan(MemorySegment input, long from, long to, int state, long minEnd, MemorySegment hits, int capacity,
      int inputId, long delta, long[] tally) {
    for (long at = from; at < to; at++) {
      int t = next(state, input.get(ValueLayout.JAVA_BYTE, at) & 0xFF);
      state = t & PromotedDfaLayout.STATE_MASK;
      if (t < 0 && at + 1 > minEnd) {
        report(state, delta + at + 1, hits, capacity, inputId, tally);
      }
    }
    return state;
  }

  /** {@link DfaStep}'s eight interleaved lanes, reporting in the same order. */
  private int scanLanes(MemorySegment input, long off, long span, long end, int state, long minEnd, MemorySegment hits,
      int capacity, int inputId, long delta, long[] tally) {
    long p1 = off + span - overlap;
    long p2 = p1 + span;
    long p3 = p2 + span;
    long p4 = p3 + span;
    long p5 = p4 + span;
    long p6 = p5 + span;
    long p7 = p6 + span;
    long m1 = Math.max(minEnd, off + span);
    long m2 = Math.max(minEnd, off + 2 * span);
    long m3 = Math.max(minEnd, off + 3 * span);
    long m4 = Math.max(minEnd, off + 4 * span);
    long m5 = Math.max(minEnd, off + 5 * span);
    long m6 = Math.max(minEnd, off + 6 * span);
    long m7 = Math.max(minEnd, off + 7 * span);
    int s0 = state;
    int s1 = rootState;
    int s2 = rootState;
    int s3 = rootState;
    int s4 = rootState;
    int s5 = rootState;
    int s6 = rootState;
    int s7 = rootState;
    long blocks = span & ~7L;
    for (long i = 0; i < blocks; i += 8) {
      long w0 = input.get(DfaStep.LONG, off + i);
      long w1 = input.get(DfaStep.LONG, p1 + i);
      long w2 = input.get(DfaStep.LONG, p2 + i);
      long w3 = input.get(DfaStep.LONG, p3 + i);
      long w4 = input.get(DfaStep.LONG, p4 + i);
      long w5 = input.get(DfaStep.LONG, p5 + i);
      long w6 = input.get(DfaStep.LONG, p6 + i);
      long w7 = input.get(DfaStep.LONG, p7 + i);
      for (int k = 0; k < 8; k++) {
        int shift = k << 3;
        int t0 = next(s0, (int) (w0 >>> shift) & 0xFF);
        int t1 = next(s1, (int) (w1 >>> shift) & 0xFF);
        int t2 = next(s2, (int) (w2 >>> shift) & 0xFF);
        int t3 = next(s3, (int) (w3 >>> shift) & 0xFF);
        int t4 = next(s4, (int) (w4 >>> shift) & 0xFF);
        int t5 = next(s5, (int) (w5 >>> shift) & 0xFF);
        int t6 = next(s6, (int) (w6 >>> shift) & 0xFF);
        int t7 = next(s7, (int) (w7 >>> shift) & 0xFF);
        s0 = t0 & PromotedDfaLayout.STATE_MASK;
        s1 = t1 & PromotedDfaLayout.STATE_MASK;
        s2 = t2 & PromotedDfaLayout.STATE_MASK;
        s3 = t3 & PromotedDfaLayout.STATE_MASK;
        s4 = t4 & PromotedDfaLayout.STATE_MASK;
        s5 = t5 & PromotedDfaLayout.STATE_MASK;
        s6 = t6 & PromotedDfaLayout.STATE_MASK;
        s7 = t7 & PromotedDfaLayout.STATE_MASK;
        if ((t0 | t1 | t2 | t3 | t4 | t5 | t6 | t7) < 0) {
          long e = i + k + 1;
          reportIf(t0, off + e, minEnd, s0, hits, capacity, inputId, delta, tally);
          reportIf(t1, p1 + e, m1, s1, hits, capacity, inputId, delta, tally);
          reportIf(t2, p2 + e, m2, s2, hits, capacity, inputId, delta, tally);
          reportIf(t3, p3 + e, m3, s3, hits, capacity, inputId, delta, tally);
          reportIf(t4, p4 + e, m4, s4, hits, capacity, inputId, delta, tally);
          reportIf(t5, p5 + e, m5, s5, hits, capacity, inputId, delta, tally);
          reportIf(t6, p6 + e, m6, s6, hits, capacity, inputId, delta, tally);
          reportIf(t7, p7 + e, m7, s7, hits, capacity, inputId, delta, tally);
        }
      }
    }
    s0 = scan(input, off + blocks, off + span, s0, minEnd, hits, capacity, inputId, delta, tally);
    s1 = scan(input, p1 + blocks, p1 + span, s1, m1, hits, capacity, inputId, delta, tally);
    s2 = scan(input, p2 + blocks, p2 + span, s2, m2, hits, capacity, inputId, delta, tally);
    s3 = scan(input, p3 + blocks, p3 + span, s3, m3, hits, capacity, inputId, delta, tally);
    s4 = scan(input, p4 + blocks, p4 + span, s4, m4, hits, capacity, inputId, delta, tally);
    s5 = scan(input, p5 + blocks, p5 + span, s5, m5, hits, capacity, inputId, delta, tally);
    s6 = scan(input, p6 + blocks, p6 + span, s6, m6, hits, capacity, inputId, delta, tally);
    s7 = scan(input, p7 + blocks, p7 + span, s7, m7, hits, capacity, inputId, delta, tally);
    scan(input, p1 + span, off + 2 * span, s1, m1, hits, capacity, inputId, delta, tally);
    scan(input, p2 + span, off + 3 * span, s2, m2, hits, capacity, inputId, delta, tally);
    scan(input, p3 + span, off + 4 * span, s3, m3, hits, capacity, inputId, delta, tally);
    scan(input, p4 + span, off + 5 * span, s4, m4, hits, capacity, inputId, delta, tally);
    scan(input, p5 + span, off + 6 * span, s5, m5, hits, capacity, inputId, delta, tally);
    scan(input, p6 + span, off + 7 * span, s6, m6, hits, capacity, inputId, delta, tally);
    return scan(input, p7 + span, end, s7, m7, hits, capacity, inputId, delta, tally);
  }

  private void reportIf(int transition, long end, long minEnd, int state, MemorySegment hits, int capacity, int inputId,
      long delta, long[] tally) {
    if (transition < 0 && end > minEnd) {
      report(state, delta + end, hits, capacity, inputId, tally);
    }
  }

  /** The hits of {@code state} ending at {@code endOffset}: counted, or appended in the VDFA's accept order. */
  private void report(int state, long endOffset, MemorySegment hits, int capacity, int inputId, long[] tally) {
    if (tally != null) {
      tally[0] += acceptCounts[state];
      return;
    }
    for (int a = acceptOffsets[state]; a < acceptOffsets[state + 1]; a++) {
      int patternId = acceptIds[a];
      DfaStep.append(hits, capacity, inputId, endOffset - Unsigned.u32(patternLengths[patternId]), patternId);
    }
  }
}
