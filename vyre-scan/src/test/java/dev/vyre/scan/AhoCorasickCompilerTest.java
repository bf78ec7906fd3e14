package dev.vyre.scan;

import static dev.vyre.scan.ScanFixtures.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.dfa.DfaTableLayout;
import dev.vyre.runtime.dfa.Hit;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class AhoCorasickCompilerTest {

  private static DfaTable compile(boolean caseInsensitive, String... patterns) {
    return AhoCorasickCompiler.compile(PatternSet.fromArguments(List.of(patterns), caseInsensitive));
  }

  private static int word(DfaTable table, long index) {
    return Words.get(table.segment(), index);
  }

  private static int classOf(DfaTable table, int b) {
    return word(table, DfaTableLayout.CLASS_MAP_BASE + b);
  }

  /** Follows the table from the start state; the state reached after {@code text}. */
  private static int walk(DfaTable table, byte[] text) {
    int row = table.startState() * table.classCount();
    for (byte b : text) {
      row = word(table, DfaTableLayout.TRANSITION_BASE + row + classOf(table, b & 0xFF)) & DfaTableLayout.ROW_MASK;
    }
    return row / table.classCount();
  }

  private static Set<Integer> accepts(DfaTable table, int state) {
    long offsets = DfaTableLayout.acceptOffsetsBase(table.stateCount(), table.classCount());
    long ids = DfaTableLayout.acceptIdsBase(table.stateCount(), table.classCount());
    Set<Integer> result = new HashSet<>();
    for (int a = word(table, offsets + state); a < word(table, offsets + state + 1); a++) {
      result.add(word(table, ids + a));
    }
    return result;
  }

  @Test
  void classicDictionaryHasTenStatesAndFollowsOutputLinks() {
    DfaTable table = compile(false, "he", "she", "his", "hers");
    assertEquals(10, table.stateCount(), "root h he her hers hi his s sh she");
    assertEquals(6, table.classCount(), "e h i r s and the class of every other byte");
    assertEquals(Set.of(1, 0), accepts(table, walk(table, bytes("ushe"))), "she ends with he");
    assertEquals(Set.of(3), accepts(table, walk(table, bytes("hers"))));
    assertEquals(Set.of(), accepts(table, walk(table, bytes("hxe"))));
    assertEquals(walk(table, bytes("sh")), walk(table, bytes("ssh")));
    assertNotEquals(walk(table, bytes("h")), walk(table, bytes("sh")));
    DfaTableLayout.validate(table.segment(), "table");
  }

  @Test
  void unusedBytesShareClassZeroAndPatternBytesGetTheirOwnClassInByteOrder() {
    DfaTable table = compile(false, "ba", "\u00ff");
    assertEquals(5, table.classCount(), "a b BF C3 (UTF-8 of \u00ff is C3 BF) and the rest");
    assertEquals(0, classOf(table, 'c'));
    assertEquals(0, classOf(table, 0));
    assertEquals(1, classOf(table, 'a'));
    assertEquals(2, classOf(table, 'b'));
    assertEquals(3, classOf(table, 0xBF));
    assertEquals(4, classOf(table, 0xC3));
    assertEquals(3, compile(false, "\u00ff").stateCount(), "root, C3, C3 BF");
  }

  @Test
  void caseInsensitiveFoldsUppercaseOntoLowercaseClasses() {
    DfaTable table = compile(true, "Ab");
    assertEquals(3, table.classCount());
    assertEquals(classOf(table, 'a'), classOf(table, 'A'));
    assertEquals(classOf(table, 'b'), classOf(table, 'B'));
    assertEquals(0, classOf(table, 'c'));
    assertEquals(Set.of(0), accepts(table, walk(table, bytes("xaB"))));
    DfaTable sensitive = compile(false, "Ab");
    assertEquals(Set.of(), accepts(sensitive, walk(sensitive, bytes("ab"))));
  }

  @Test
  void everyByteInUseMeansNoSpareClass() {
    byte[] all = new byte[256];
    for (int b = 0; b < 256; b++) {
      all[b] = (byte) b;
    }
    DfaTable table = AhoCorasickCompiler.compile(PatternSet.of(List.of(all), false, "t"));
    assertEquals(256, table.classCount());
    assertEquals(257, table.stateCount());
    assertEquals(0, classOf(table, 0));
    assertEquals(255, classOf(table, 255));
  }

  @Test
  void anUnusedUppercaseLetterKeepsASpareClassWhenEveryOtherByteIsInUse() {
    // Case-sensitive: 'A' is used by no pattern, so it must not share byte 0x00's class (found
    // by ScanDifferentialTest: "A" in the text matched the pattern "\0").
    byte[] allButA = new byte[255];
    for (int b = 0, n = 0; b < 256; b++) {
      if (b != 'A') {
        allButA[n++] = (byte) b;
      }
    }
    PatternSet patterns = PatternSet.of(List.of(allButA, new byte[] {0}), false, "t");
    DfaTable table = AhoCorasickCompiler.compile(patterns);
    assertEquals(256, table.classCount());
    assertEquals(0, classOf(table, 'A'));
    assertNotEquals(classOf(table, 0), classOf(table, 'A'));
    assertEquals(Set.of(), accepts(table, walk(table, bytes("A"))));
    assertEquals(Set.of(1), accepts(table, walk(table, new byte[] {'A', 0})));
  }

  @Test
  void duplicatePatternsShareAStateAndKeepTheirIds() {
    DfaTable table = compile(true, "ab", "AB", "b");
    assertEquals(Set.of(0, 1, 2), accepts(table, walk(table, bytes("ab"))));
    assertEquals(4, table.stateCount(), "root a ab b");
  }

  @Test
  void describesItsSize() {
    DfaTable table = compile(false, "he", "she");
    long words = DfaTableLayout.totalWords(6, 4, 3, 2);
    assertEquals(words * 4, table.byteSize());
    assertEquals("2 patterns, 6 states, 4 byte classes, " + words * 4 + " table bytes", table.describe());
    assertEquals(3, table.maxPatternLength());
    assertEquals(2, table.patternCount());
  }

  @Test
  void rejectsATableOverTheSizeLimit() {
    SplittableRandom random = new SplittableRandom(7);
    List<byte[]> patterns = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      byte[] pattern = new byte[16];
      random.nextBytes(pattern);
      patterns.add(pattern);
    }
    patterns.add(new byte[] {0, 1, 2, 3, (byte) 255});
    InputException e = assertThrows(InputException.class,
        () -> AhoCorasickCompiler.compile(PatternSet.of(patterns, false, "t")));
    assertTrue(e.getMessage().contains("above the 268435456-byte table limit. Fix: split"), e.getMessage());
  }

  /** The defining property: after any text, the state accepts exactly the patterns that end it. */
  @Property(tries = 300)
  void stateAfterTextAcceptsExactlyThePatternsThatAreItsSuffixes(@ForAll("cases") ScanFixtures.Case c) {
    PatternSet set = c.patternSet();
    DfaTable table = AhoCorasickCompiler.compile(set);
    DfaTableLayout.validate(table.segment(), "table");
    for (int end = 0; end <= c.input().length; end++) {
      byte[] prefix = Arrays.copyOf(c.input(), end);
      Set<Integer> expected = new HashSet<>();
      for (Hit hit : NaiveMatcher.findAll(set, prefix, 0)) {
        if (hit.start() + set.length(hit.patternId()) == end) {
          expected.add(hit.patternId());
        }
      }
      assertEquals(expected, accepts(table, walk(table, prefix)), "after " + end + " bytes");
    }
  }

  @Provide
  Arbitrary<ScanFixtures.Case> cases() {
    return ScanFixtures.cases(bytes("abAB\u00e9"), 4, 24);
  }

  @Test
  void tableSegmentIsReadOnly() {
    MemorySegment segment = compile(false, "x").segment();
    assertTrue(segment.isReadOnly());
  }
}
