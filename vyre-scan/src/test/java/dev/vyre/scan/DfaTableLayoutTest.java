package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.ProtocolException;
import dev.vyre.runtime.dfa.DfaTableLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;

class DfaTableLayoutTest {

  /** "he", "she": 6 states, 4 classes, 3 accept ids, 2 patterns. */
  private static MemorySegment table() {
    DfaTable table = AhoCorasickCompiler.compile(PatternSet.fromArguments(List.of("he", "she"), false));
    MemorySegment copy = Arena.ofAuto().allocate(table.byteSize(), 4);
    table.copyTo(copy);
    return copy;
  }

  private static ProtocolException rejected(MemorySegment table) {
    return assertThrows(ProtocolException.class, () -> DfaTableLayout.validate(table, "dfa"));
  }

  @Test
  void layoutIsTheDocumentedOneAndTheMagicSpellsVdfa() {
    assertEquals("VDFA", new String(new byte[] {0x56, 0x44, 0x46, 0x41}));
    assertEquals(0x41464456, DfaTableLayout.MAGIC);
    assertEquals(16, DfaTableLayout.CLASS_MAP_BASE);
    assertEquals(272, DfaTableLayout.TRANSITION_BASE);
    assertEquals(272 + 24, DfaTableLayout.acceptOffsetsBase(6, 4));
    assertEquals(272 + 24 + 7, DfaTableLayout.acceptIdsBase(6, 4));
    assertEquals(272 + 24 + 7 + 3, DfaTableLayout.patternLengthsBase(6, 4, 3));
    assertEquals(272 + 24 + 7 + 3 + 2, DfaTableLayout.totalWords(6, 4, 3, 2));
    assertEquals((272 + 5 * 4 + 3) * 4L, DfaTableLayout.transitionOffset(4, 5, 3));

    MemorySegment table = table();
    int[] expectedHeader = {DfaTableLayout.MAGIC, 1, 6, 4, 0, 2, 3, 16, 272, 296, 303, 306, 308, 0, 0, 0};
    for (int word = 0; word < expectedHeader.length; word++) {
      assertEquals(expectedHeader[word], Words.get(table, word), "header word " + word);
    }
    assertEquals(308 * 4, table.byteSize());
    assertEquals(2, Words.get(table, 306), "length of he");
    assertEquals(3, Words.get(table, 307), "length of she");
    DfaTableLayout.validate(table, "dfa");
    assertEquals(-1, DfaTableLayout.headerProblem(table));
  }

  @Test
  void rejectsLengthsThatCannotHoldAHeader() {
    ProtocolException misaligned = rejected(table().asSlice(0, 63));
    assertEquals(ProtocolException.Variant.MisalignedByteLength, misaligned.variant());
    ProtocolException shortOne = rejected(table().asSlice(0, 60));
    assertEquals(ProtocolException.Variant.MissingWord, shortOne.variant());
    assertTrue(shortOne.getMessage().startsWith("dfa is missing word 15 (byte length 60). Fix: "),
        shortOne.getMessage());
  }

  @Test
  void rejectsATruncatedBody() {
    ProtocolException e = rejected(table().asSlice(0, 300 * 4));
    assertEquals(DfaTableLayout.TOTAL_WORDS_WORD, (long) (Long) e.fields().get("word_idx"));
  }

  @Test
  void namesTheFirstBadHeaderWord() {
    int[][] corruptions = {
        {DfaTableLayout.MAGIC_WORD, 0x41464457}, {DfaTableLayout.VERSION_WORD, 2}, {DfaTableLayout.STATE_COUNT_WORD, 0},
        {DfaTableLayout.CLASS_COUNT_WORD, 257}, {DfaTableLayout.START_STATE_WORD, 6},
        {DfaTableLayout.PATTERN_COUNT_WORD, 0}, {DfaTableLayout.MAX_PATTERN_LEN_WORD, 0},
        {DfaTableLayout.CLASS_MAP_BASE_WORD, 17}, {DfaTableLayout.TRANSITION_BASE_WORD, 273},
        {DfaTableLayout.ACCEPT_OFFSETS_BASE_WORD, 297}, {DfaTableLayout.ACCEPT_IDS_BASE_WORD, 304},
        {DfaTableLayout.PATTERN_LENGTHS_BASE_WORD, 302}, {DfaTableLayout.TOTAL_WORDS_WORD, 309}, {14, 1}};
    for (int[] corruption : corruptions) {
      MemorySegment table = table();
      Words.set(table, corruption[0], corruption[1]);
      assertEquals(corruption[0], DfaTableLayout.headerProblem(table), "word " + corruption[0]);
      ProtocolException e = rejected(table);
      assertEquals(ProtocolException.Variant.InvalidWord, e.variant());
      assertEquals((long) corruption[0], e.fields().get("word_idx"));
      assertTrue(e.getMessage().startsWith("dfa word " + corruption[0] + " holds " + corruption[1]
          + " (byte length 1232): "), e.getMessage());
      assertTrue(e.getMessage().contains(". Fix: rebuild the table with AhoCorasickCompiler"), e.getMessage());
    }
  }

  @Test
  void rejectsBadContent() {
    long[][] corruptions = {
        {DfaTableLayout.CLASS_MAP_BASE + 'x', 4},
        {DfaTableLayout.TRANSITION_BASE, 6 * 4},
        {DfaTableLayout.TRANSITION_BASE, 3},
        {DfaTableLayout.TRANSITION_BASE, DfaTableLayout.ACCEPT_FLAG},
        {296 + 2, 9},
        {303, 2},
        {306, 4},
        {306, 0}};
    for (long[] corruption : corruptions) {
      MemorySegment table = table();
      Words.set(table, corruption[0], (int) corruption[1]);
      ProtocolException e = rejected(table);
      assertEquals(corruption[0], e.fields().get("word_idx"), e.getMessage());
    }
  }
}
