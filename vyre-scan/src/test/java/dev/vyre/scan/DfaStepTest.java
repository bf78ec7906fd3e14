package dev.vyre.scan;

import static dev.vyre.scan.ScanFixtures.bytes;
import static dev.vyre.scan.ScanFixtures.copy;
import static dev.vyre.scan.ScanFixtures.hits;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.dfa.DfaStep;
import dev.vyre.runtime.dfa.DfaTableLayout;
import dev.vyre.runtime.dfa.Hit;
import dev.vyre.runtime.dfa.HitBufferLayout;
import dev.vyre.runtime.wire.FaultReason;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class DfaStepTest {

  private final Arena arena = Arena.ofAuto();
  private final DfaTable table = AhoCorasickCompiler.compile(
      PatternSet.fromArguments(List.of("he", "she", "his", "hers"), false));
  private final MemorySegment dfa = copy(arena, table.segment());

  private int run(String text, long reportFrom, MemorySegment hits) {
    MemorySegment input = copy(arena, MemorySegment.ofArray(bytes(text)));
    return DfaStep.run(input, 0, text.length(), dfa, 0, hits, 3, 100, reportFrom);
  }

  @Test
  void reportsEveryMatchIncludingOverlapsWithAbsoluteStarts() {
    MemorySegment hits = hits(arena, 16);
    int state = run("ushers", 0, hits);
    assertEquals(List.of(new Hit(3, 101, 1), new Hit(3, 102, 0), new Hit(3, 102, 3)),
        ScanFixtures.sorted(HitBufferLayout.readAll(hits)));
    assertEquals(3, HitBufferLayout.cursor(hits));
    assertTrue(state > 0, "hers leaves the automaton in a non-root state");
  }

  @Test
  void reportFromDropsMatchesEndingAtOrBeforeIt() {
    MemorySegment hits = hits(arena, 16);
    run("ushers", 4, hits);
    assertEquals(List.of(new Hit(3, 102, 3)), HitBufferLayout.readAll(hits), "she and he end at 4");
  }

  @Test
  void theFinalStateContinuesTheNextRange() {
    MemorySegment hits = hits(arena, 16);
    MemorySegment input = copy(arena, MemorySegment.ofArray(bytes("xush|ers")));
    int state = DfaStep.run(input, 1, 3, dfa, 0, hits, 0, 1000, 0);
    assertEquals(0, HitBufferLayout.cursor(hits));
    state = DfaStep.run(input, 5, 3, dfa, state, hits, 0, 1003, 0);
    assertTrue(state >= 0);
    assertEquals(List.of(new Hit(0, 1001, 1), new Hit(0, 1002, 0), new Hit(0, 1002, 3)),
        ScanFixtures.sorted(HitBufferLayout.readAll(hits)), "she, he and hers all span both ranges");
  }

  @Test
  void overflowCountsEveryHitAndStoresOnlyCapacity() {
    MemorySegment hits = hits(arena, 1);
    run("ushers", 0, hits);
    assertEquals(3, HitBufferLayout.cursor(hits));
    assertTrue(HitBufferLayout.overflowed(hits));
    assertEquals(1, HitBufferLayout.readAll(hits).size());
  }

  @Test
  void thousandsOfHitsInOneRunAreAllCountedAndStoredUpToTheCapacity() {
    String text = "she".repeat(1000);
    MemorySegment all = hits(arena, 2000);
    run(text, 0, all);
    assertEquals(2000, HitBufferLayout.cursor(all));
    List<Hit> stored = ScanFixtures.sorted(HitBufferLayout.readAll(all));
    assertEquals(2000, stored.size());
    assertEquals(new Hit(3, 100, 1), stored.get(0), "she at 0");
    assertEquals(new Hit(3, 100 + 2998, 0), stored.get(1999), "the last he, at 2998");
    MemorySegment some = hits(arena, 700);
    run(text, 0, some);
    assertEquals(2000, HitBufferLayout.cursor(some), "the cursor counts the hits that did not fit");
    assertEquals(700, HitBufferLayout.readAll(some).size());
  }

  @Test
  void caseInsensitiveTablesMatchEitherCaseAndAnyByteValue() {
    DfaTable folded = AhoCorasickCompiler.compile(PatternSet.of(List.of(bytes("hE\u00ff"), bytes("\u0000")), true,
        "t"));
    MemorySegment hits = hits(arena, 8);
    MemorySegment input = copy(arena, MemorySegment.ofArray(bytes("He\u00ff\u0000HE\u00df")));
    assertTrue(DfaStep.run(input, 0, 7, copy(arena, folded.segment()), 0, hits, 0, 0, 0) >= 0);
    assertEquals(List.of(new Hit(0, 0, 0), new Hit(0, 3, 1)), ScanFixtures.sorted(HitBufferLayout.readAll(hits)));
  }

  @Test
  void faultsWriteNothing() {
    MemorySegment hits = hits(arena, 4);
    MemorySegment input = copy(arena, MemorySegment.ofArray(bytes("ushers")));
    assertEquals(DfaStep.FAULT_INPUT_RANGE, DfaStep.run(input, 1, 6, dfa, 0, hits, 0, 0, 0));
    assertEquals(DfaStep.FAULT_INPUT_RANGE, DfaStep.run(input, -1, 2, dfa, 0, hits, 0, 0, 0));
    assertEquals(DfaStep.FAULT_INPUT_RANGE, DfaStep.run(input, 0, -1, dfa, 0, hits, 0, 0, 0));
    assertEquals(DfaStep.FAULT_INPUT_RANGE, DfaStep.run(input, Long.MAX_VALUE, 2, dfa, 0, hits, 0, 0, 0));
    assertEquals(DfaStep.FAULT_START_STATE, DfaStep.run(input, 0, 6, dfa, table.stateCount(), hits, 0, 0, 0));
    assertEquals(DfaStep.FAULT_START_STATE, DfaStep.run(input, 0, 6, dfa, -1, hits, 0, 0, 0));
    assertEquals(DfaStep.FAULT_BASE_OFFSET, DfaStep.run(input, 0, 6, dfa, 0, hits, 0, -3, 0));
    MemorySegment badMagic = copy(arena, dfa);
    Words.set(badMagic, DfaTableLayout.MAGIC_WORD, 0);
    assertEquals(DfaStep.FAULT_DFA_TABLE, DfaStep.run(input, 0, 6, badMagic, 0, hits, 0, 0, 0));
    assertEquals(DfaStep.FAULT_DFA_TABLE, DfaStep.run(input, 0, 6, dfa.asSlice(0, 60), 0, hits, 0, 0, 0));
    assertEquals(DfaStep.FAULT_DFA_TABLE, DfaStep.run(input, 0, 6, dfa.asSlice(0, dfa.byteSize() - 4), 0, hits, 0,
        0, 0));
    assertEquals(DfaStep.FAULT_HIT_BUFFER, DfaStep.run(input, 0, 6, dfa, 0, hits.asSlice(0, 40), 0, 0, 0));
    assertEquals(DfaStep.FAULT_HIT_BUFFER, DfaStep.run(input, 0, 6, dfa, 0, hits.asReadOnly(), 0, 0, 0));
    MemorySegment unaligned = MemorySegment.ofArray(new byte[(int) HitBufferLayout.byteSize(4)]);
    assertEquals(DfaStep.FAULT_HIT_BUFFER, DfaStep.run(input, 0, 6, dfa, 0, unaligned, 0, 0, 0));
    assertEquals(0, HitBufferLayout.cursor(hits));
  }

  @Test
  void faultsMapToSlotFaultReasons() {
    assertEquals(FaultReason.RESOURCE_OUT_OF_RANGE, DfaStep.faultReason(DfaStep.FAULT_INPUT_RANGE));
    assertEquals(FaultReason.RESOURCE_OUT_OF_RANGE, DfaStep.faultReason(DfaStep.FAULT_HIT_BUFFER));
    assertEquals(FaultReason.RESOURCE_OUT_OF_RANGE, DfaStep.faultReason(DfaStep.FAULT_BASE_OFFSET));
    assertEquals(FaultReason.MALFORMED_TABLE, DfaStep.faultReason(DfaStep.FAULT_DFA_TABLE));
    assertEquals(FaultReason.MALFORMED_TABLE, DfaStep.faultReason(DfaStep.FAULT_START_STATE));
    assertEquals(FaultReason.NONE, DfaStep.faultReason(0));
    assertEquals(FaultReason.HANDLER_FAILED, DfaStep.faultReason(-99));
  }

  @Test
  void anEmptyRangeReturnsTheStartState() {
    MemorySegment hits = hits(arena, 1);
    assertEquals(4, DfaStep.run(copy(arena, MemorySegment.ofArray(bytes("x"))), 1, 0, dfa, 4, hits, 0, 0, 0));
  }

  @Property(tries = 300)
  void oneStepOverTheWholeInputEqualsTheNaiveMatcher(@ForAll("cases") ScanFixtures.Case c) {
    PatternSet set = c.patternSet();
    assertEquals(NaiveMatcher.findAll(set, c.input(), 9), ScanFixtures.scanChunked(set, c.input(), 1 << 20, 9));
  }

  /** Ranges of 2 KiB and more run as eight interleaved lanes; their hits and final state must not change. */
  @Property(tries = 60)
  void laneSplitRangesMatchTheNaiveMatcherAndASequentialFinalState(@ForAll("longCases") ScanFixtures.Case c,
      @ForAll @IntRange(min = 0, max = 40) int reportFrom) {
    PatternSet set = c.patternSet();
    DfaTable table = AhoCorasickCompiler.compile(set);
    MemorySegment dfaCopy = copy(arena, table.segment());
    MemorySegment input = copy(arena, MemorySegment.ofArray(c.input()));
    MemorySegment hits = hits(arena, (long) c.input().length * set.size() + 1);
    int state = DfaStep.run(input, 0, c.input().length, dfaCopy, 0, hits, 2, 0, reportFrom);
    List<Hit> expected = NaiveMatcher.findAll(set, c.input(), 2).stream()
        .filter(h -> h.start() + set.length(h.patternId()) > reportFrom).toList();
    assertEquals(expected, ScanFixtures.sorted(HitBufferLayout.readAll(hits)));
    int sequential = 0;
    for (int i = 0; i < c.input().length; i++) {
      sequential = DfaStep.run(input, i, 1, dfaCopy, sequential, hits, 2, i, 1);
    }
    assertEquals(sequential, state);
  }

  @Provide
  Arbitrary<ScanFixtures.Case> longCases() {
    return ScanFixtures.cases(new byte[] {'a', 'b', (byte) 0x80}, 1, 6, 2048, 8000);
  }

  @Provide
  Arbitrary<ScanFixtures.Case> cases() {
    return ScanFixtures.cases(new byte[] {'a', 'b', 'A', 0, (byte) 0x80, (byte) 0xFF}, 5, 200);
  }
}
