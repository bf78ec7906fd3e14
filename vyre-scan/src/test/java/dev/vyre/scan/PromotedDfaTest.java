package dev.vyre.scan;

import static dev.vyre.scan.ScanFixtures.copy;
import static dev.vyre.scan.ScanFixtures.hits;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.ProtocolException;
import dev.vyre.runtime.dfa.DfaStep;
import dev.vyre.runtime.dfa.DfaStepArgs;
import dev.vyre.runtime.dfa.HitBufferLayout;
import dev.vyre.runtime.dfa.MatchCountLayout;
import dev.vyre.runtime.dfa.PromotedDfa;
import dev.vyre.runtime.dfa.PromotedDfaLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The promoted DFA_STEP against the interpreter's, record for record, and the compact layout it reads. */
class PromotedDfaTest {

  private final Arena arena = Arena.ofAuto();

  private MemorySegment counts(long counters) {
    MemorySegment counts = arena.allocate(MatchCountLayout.byteSize(counters), 4096);
    MatchCountLayout.init(counts, counters);
    return counts;
  }

  private static MemorySegment compact(DfaTable table) {
    return ((PromotedDfaLayout.Compact) PromotedDfaLayout.compact(table.segment())).table();
  }

  /**
   * Any range, start state, report_from and base offset: the same final state, and in record mode
   * the same records in the same order (lanes included), in count mode the same count, as the
   * interpreter over the VDFA table.
   */
  @Property(tries = 200)
  void aPromotedStepEqualsTheInterpretersStep(@ForAll("cases") ScanFixtures.Case c, @ForAll @IntRange(max = 5000) int from,
      @ForAll @IntRange(max = 5000) int length, @ForAll @IntRange(max = 1 << 16) int startSeed,
      @ForAll @IntRange(max = 50) int reportFrom, @ForAll @LongRange(max = 1L << 40) long baseOffset) {
    DfaTable table = AhoCorasickCompiler.compile(c.patternSet());
    MemorySegment vdfa = copy(arena, table.segment());
    PromotedDfa promoted = PromotedDfa.of(compact(table), vdfa, "promoted");
    MemorySegment input = copy(arena, MemorySegment.ofArray(c.input()));
    int off = Math.min(from, c.input().length);
    int len = Math.min(length, c.input().length - off);
    int start = startSeed % table.stateCount();
    long capacity = (long) len * c.patterns().size() / 2 + 1;
    MemorySegment interpreted = hits(arena, capacity);
    MemorySegment fast = hits(arena, capacity);
    assertEquals(DfaStep.run(input, off, len, vdfa, start, interpreted, 7, baseOffset, reportFrom),
        promoted.run(input, off, len, start, fast, 7, baseOffset, reportFrom, DfaStepArgs.MODE_RECORDS));
    assertEquals(HitBufferLayout.cursor(interpreted), HitBufferLayout.cursor(fast));
    assertEquals(HitBufferLayout.readAll(interpreted), HitBufferLayout.readAll(fast));
    MemorySegment interpretedCounts = counts(9);
    MemorySegment fastCounts = counts(9);
    assertEquals(DfaStep.run(input, off, len, vdfa, start, interpretedCounts, 8, baseOffset, reportFrom, DfaStepArgs.MODE_COUNT),
        promoted.run(input, off, len, start, fastCounts, 8, baseOffset, reportFrom, DfaStepArgs.MODE_COUNT));
    assertEquals(MatchCountLayout.counter(interpretedCounts, 8), MatchCountLayout.counter(fastCounts, 8));
  }

  @Provide
  Arbitrary<ScanFixtures.Case> cases() {
    return ScanFixtures.cases(new byte[] {'a', 'b', 'A', 0, (byte) 0x80, (byte) 0xFF}, 1, 7, 0, 6000);
  }

  @Test
  void faultsAreTheInterpretersFaults() {
    DfaTable table = AhoCorasickCompiler.compile(PatternSet.fromArguments(List.of("he", "she"), false));
    MemorySegment vdfa = copy(arena, table.segment());
    PromotedDfa promoted = PromotedDfa.of(compact(table), vdfa, "promoted");
    MemorySegment input = copy(arena, MemorySegment.ofArray(new byte[16]));
    MemorySegment hits = hits(arena, 4);
    assertEquals(DfaStep.FAULT_INPUT_RANGE, promoted.run(input, 10, 7, 0, hits, 0, 0, 0, DfaStepArgs.MODE_RECORDS));
    assertEquals(DfaStep.FAULT_START_STATE, promoted.run(input, 0, 16, table.stateCount(), hits, 0, 0, 0,
        DfaStepArgs.MODE_RECORDS));
    assertEquals(DfaStep.FAULT_HIT_BUFFER, promoted.run(input, 0, 16, 0, hits, 0, 0, 0, 2));
    assertEquals(DfaStep.FAULT_HIT_BUFFER, promoted.run(input, 0, 16, 0, counts(1), 1, 0, 0, DfaStepArgs.MODE_COUNT));
    assertEquals(DfaStep.FAULT_BASE_OFFSET, promoted.run(input, 0, 16, 0, hits, 0, -8, 0, DfaStepArgs.MODE_RECORDS));
    assertEquals(0, HitBufferLayout.cursor(hits));
  }

  @Test
  void theCompactTableHoldsTheLayoutTheKernelReads() {
    DfaTable table = AhoCorasickCompiler.compile(PatternSet.fromArguments(List.of("he", "she", "his", "hers"), false));
    MemorySegment compact = compact(table);
    int states = table.stateCount();
    int classes = table.classCount();
    long total = PromotedDfaLayout.totalBytes(states, classes);
    assertEquals(total, compact.byteSize());
    assertEquals(0, total % 16);
    assertEquals(0, PromotedDfaLayout.transitionsOffset(states) % 16);
    assertTrue(PromotedDfaLayout.transitionsOffset(states) >= 288 + 2L * states);
    int[] header = {0x46445056, 1, states, classes, table.startState(), (int) total, 0, 0};
    for (int w = 0; w < header.length; w++) {
      assertEquals(header[w], compact.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED.withOrder(
          java.nio.ByteOrder.LITTLE_ENDIAN), 4L * w), "header word " + w);
    }
    // "she" from the root: s, h lead to non-accepting states, e to one that accepts she and he.
    int state = table.startState();
    int[] accepts = new int[3];
    byte[] she = {'s', 'h', 'e'};
    for (int i = 0; i < 3; i++) {
      int classId = compact.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 32 + she[i]) & 0xFF;
      int t = PromotedDfaLayout.u16(compact, PromotedDfaLayout.transitionOffset(states, classes, state, classId));
      state = t & PromotedDfaLayout.STATE_MASK;
      accepts[i] = (t & PromotedDfaLayout.ACCEPT_FLAG) != 0 ? PromotedDfaLayout.u16(compact, 288 + 2L * state) : 0;
    }
    assertEquals(List.of(0, 0, 2), List.of(accepts[0], accepts[1], accepts[2]));
  }

  @Test
  void aTableOverTheLimitsIsNotPromotableAndSaysWhy() {
    List<String> many = ScanCorpus.literals(4000, ScanCorpus.DEFAULT_SEED);
    PromotedDfaLayout.Compaction big = PromotedDfaLayout.compact(
        AhoCorasickCompiler.compile(PatternSet.fromArguments(many, false)).segment());
    PromotedDfaLayout.NotPromotable refused = (PromotedDfaLayout.NotPromotable) big;
    assertTrue(refused.refusal() == PromotedDfaLayout.Refusal.TOO_MANY_STATES
        || refused.refusal() == PromotedDfaLayout.Refusal.TOO_MANY_BYTES, refused.toString());
    PromotedDfaLayout.Compaction fits = PromotedDfaLayout.compact(
        AhoCorasickCompiler.compile(PatternSet.fromArguments(many.subList(0, 100), false)).segment());
    assertTrue(fits instanceof PromotedDfaLayout.Compact, fits.toString());
    List<String> sameLetter = java.util.Collections.nCopies(PromotedDfaLayout.MAX_ACCEPTS + 1, "a");
    PromotedDfaLayout.Compaction accepts = PromotedDfaLayout.compact(
        AhoCorasickCompiler.compile(PatternSet.fromArguments(sameLetter, false)).segment());
    assertEquals(PromotedDfaLayout.Refusal.TOO_MANY_ACCEPTS, ((PromotedDfaLayout.NotPromotable) accepts).refusal());
  }

  @Test
  void aCompactTableOfAnotherTableIsRefused() {
    DfaTable one = AhoCorasickCompiler.compile(PatternSet.fromArguments(List.of("he", "she"), false));
    DfaTable other = AhoCorasickCompiler.compile(PatternSet.fromArguments(List.of("ha", "sha"), false));
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> PromotedDfa.of(compact(other), copy(arena, one.segment()), "promoted DFA table 3"));
    assertTrue(e.getMessage().contains("promoted DFA table 3") && e.getMessage().contains("Fix: "), e.getMessage());
  }
}
