package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A chunk must not be able to hold more matches than DFA_STEP's u32 hit cursor counts. */
class HitCounterGuardTest {

  private static DfaTable compile(List<String> patterns) {
    List<byte[]> bytes = new ArrayList<>();
    for (String pattern : patterns) {
      bytes.add(pattern.getBytes(StandardCharsets.UTF_8));
    }
    return AhoCorasickCompiler.compile(PatternSet.of(bytes, false, "test"));
  }

  /** a, aa, ... up to {@code longest} a's: every one ends wherever the longest does. */
  private static List<String> aRuns(int longest) {
    List<String> runs = new ArrayList<>();
    for (int length = 1; length <= longest; length++) {
      runs.add("a".repeat(length));
    }
    return runs;
  }

  @Test
  void theMostMatchesEndingAtOneByteCountSuffixesAndDuplicates() {
    assertEquals(1, compile(List.of("abc", "xyz")).maxAcceptsPerState());
    assertEquals(3, compile(List.of("a", "aa", "aaa", "b")).maxAcceptsPerState(), "aaa ends with aa and a");
    assertEquals(2, compile(List.of("abc", "abc")).maxAcceptsPerState(), "duplicates end together");
    assertEquals(2, compile(List.of("bc", "abc", "x")).maxAcceptsPerState());
  }

  @Test
  void aChunkThatCouldOverflowTheHitCounterIsRefusedWithTheLargestThatFits() {
    DfaTable table = compile(aRuns(1100));
    assertEquals(1100, table.maxAcceptsPerState());
    InputException error = assertThrows(InputException.class, () -> ScanJob.checkHitsCountable(table, 4L << 20));
    assertTrue(error.getMessage().contains("at most " + (0xFFFF_FFFFL / 1100) + " bytes"), error.getMessage());
    assertTrue(error.getMessage().contains("Fix:"), error.getMessage());
    assertDoesNotThrow(() -> ScanJob.checkHitsCountable(table, 0xFFFF_FFFFL / 1100));
    assertDoesNotThrow(() -> ScanJob.checkHitsCountable(compile(List.of("needle")), 1L << 31));
  }

  @Test
  void optionsShrinkTheirChunksToWholeTasksThatTheCounterCanCount() {
    DfaTable table = compile(aRuns(1100));
    ScanOptions options = ScanOptions.defaults();
    ScanOptions fitted = options.fittingHitCounter(table);
    long largest = 0xFFFF_FFFFL / 1100 - 1099;
    assertTrue(fitted.chunkBytes() <= largest && fitted.chunkBytes() > largest - options.taskBytes(), fitted.toString());
    assertEquals(0, fitted.chunkBytes() % fitted.taskBytes());
    assertDoesNotThrow(() -> ScanJob.checkHitsCountable(table, fitted.chunkBytes() + 1099));
    assertEquals(options, options.fittingHitCounter(compile(List.of("needle"))), "options that fit are kept");
  }
}
