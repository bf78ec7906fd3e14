package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.vyre.driver.error.VyreException;
import dev.vyre.runtime.dfa.DfaTableLayout;
import java.util.Arrays;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzzing of {@code vyre scan -f FILE} on the bytes of the pattern file: reading its
 * lines, checking them as a pattern set and compiling the automaton may only fail with a typed error
 * with a fix. A table that compiles must pass the check the kernel's resource registration makes
 * and find what the naive matcher finds in the file's own first bytes.
 */
class PatternFileFuzzTest {

  /** Enough haystack for overlapping and chunk-straddling matches while the naive oracle stays cheap. */
  private static final int HAYSTACK_BYTES = 512;
  private static final long CHUNK_BYTES = 64;

  @Timeout(10)
  @FuzzTest
  void compile(byte[] file) {
    for (boolean caseInsensitive : new boolean[] {false, true}) {
      PatternSet patterns;
      DfaTable table;
      try {
        patterns = PatternSet.of(PatternSet.lines("fuzz.txt", file), caseInsensitive, "fuzz.txt");
        table = AhoCorasickCompiler.compile(patterns);
      } catch (VyreException e) {
        assertTrue(e.getMessage().contains("Fix: "), e::getMessage);
        continue;
      }
      DfaTableLayout.validate(table.segment(), "fuzz.txt");
      byte[] haystack = Arrays.copyOf(file, Math.min(file.length, HAYSTACK_BYTES));
      assertEquals(NaiveMatcher.findAll(patterns, haystack, 0),
          ScanFixtures.scanChunked(patterns, haystack, CHUNK_BYTES, 0));
    }
  }
}
