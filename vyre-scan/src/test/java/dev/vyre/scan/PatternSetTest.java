package dev.vyre.scan;

import static dev.vyre.scan.ScanFixtures.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PatternSetTest {

  @TempDir Path dir;

  private Path file(String content) throws IOException {
    return Files.write(dir.resolve("patterns.txt"), bytes(content));
  }

  @Test
  void readsLfCrlfAndAFinalLineWithoutNewline() throws IOException {
    PatternSet set = PatternSet.fromFile(file("alpha\nbeta\r\ngam\rma"), false);
    assertEquals(3, set.size());
    assertArrayEquals(bytes("alpha"), set.pattern(0));
    assertArrayEquals(bytes("beta"), set.pattern(1));
    assertArrayEquals(bytes("gam\rma"), set.pattern(2), "only a CR before the LF ends a line");
    assertEquals(6, set.maxLength());
    assertEquals(15, set.totalBytes());
  }

  @Test
  void aTrailingNewlineDoesNotAddAPattern() throws IOException {
    assertEquals(2, PatternSet.fromFile(file("a\r\nb\r\n"), false).size());
  }

  @Test
  void aBlankLineIsAnErrorNamingItsLine() throws IOException {
    Path path = file("a\nb\n\r\nc\n");
    InputException e = assertThrows(InputException.class, () -> PatternSet.fromFile(path, false));
    assertTrue(e.getMessage().startsWith(path + ":3: empty pattern"), e.getMessage());
    assertTrue(e.getMessage().contains("Fix: "), e.getMessage());
    assertEquals(3L, e.fields().get("line"));
  }

  @Test
  void anEmptyFileHoldsNoPatternsButASetNeedsOne() throws IOException {
    Path path = file("");
    assertEquals(List.of(), PatternSet.fileLines(path), "grep -F -f: an empty file adds no pattern");
    InputException e = assertThrows(InputException.class, () -> PatternSet.fromFile(path, false));
    assertTrue(e.getMessage().contains("no patterns given. Fix: "), e.getMessage());
  }

  @Test
  void aMissingFileIsInputError() {
    Path path = dir.resolve("absent.txt");
    InputException e = assertThrows(InputException.class, () -> PatternSet.fromFile(path, false));
    assertTrue(e.getMessage().contains("cannot read the pattern file"), e.getMessage());
  }

  @Test
  void argumentsAreUtf8AndMustNotBeEmpty() {
    PatternSet set = PatternSet.fromArguments(List.of("é", "x"), false);
    assertArrayEquals(new byte[] {(byte) 0xC3, (byte) 0xA9}, set.pattern(0));
    InputException e = assertThrows(InputException.class, () -> PatternSet.fromArguments(List.of("x", ""), false));
    assertEquals("-e: pattern argument 2 is empty. Fix: remove it; an empty pattern would match at every byte offset"
        + " (grep -F prints every line for it, but vyre scan prints matches, not lines)", e.getMessage());
    assertThrows(InputException.class, () -> PatternSet.fromArguments(List.of(), false));
  }

  /** {@code grep -F -e $'foo\nbar'} searches for foo and for bar; so does an argument here. */
  @Test
  void aNewlineInAnArgumentSeparatesPatternsInOrder() {
    PatternSet set = PatternSet.fromArguments(List.of("a\nbc\r", "d"), false);
    assertEquals(3, set.size());
    assertArrayEquals(bytes("a"), set.pattern(0));
    assertArrayEquals(bytes("bc\r"), set.pattern(1), "only LF separates: a CR is a byte of the pattern");
    assertArrayEquals(bytes("d"), set.pattern(2));
  }

  /** grep takes an empty line of an argument as an empty pattern, matching every line; it is refused here. */
  @Test
  void anEmptyLineInAnArgumentIsAnErrorSayingWhichNewlineToRemove() {
    for (String[] c : new String[][] {{"x\n", "line 2 of pattern argument 2", "the newline at its end"},
        {"\nx", "line 1 of pattern argument 2", "the newline at its start"},
        {"x\n\ny", "line 2 of pattern argument 2", "one of its two newlines in a row"}}) {
      InputException e = assertThrows(InputException.class,
          () -> PatternSet.argumentLines("-e", List.of("ok", c[0])));
      assertTrue(e.getMessage().startsWith("-e: " + c[1] + " is empty (a newline separates patterns, as in grep). Fix: "
          + "remove " + c[2] + "; an empty pattern would match at every byte offset"), e.getMessage());
    }
  }

  @Test
  void caseInsensitiveFoldsOnlyAsciiLettersForMatching() {
    PatternSet set = PatternSet.fromArguments(List.of("AbZ[@\u00c9"), true);
    assertEquals(7, set.length(0));
    assertArrayEquals(bytes("abz[@\u00c3\u0089"), set.matchBytes(0));
    assertArrayEquals(bytes("AbZ[@\u00c3\u0089"), set.pattern(0), "the original stays for output");
    assertTrue(set.caseInsensitive());
  }

  @Test
  void rejectsAPatternOverTheLengthLimit() {
    byte[] longest = new byte[PatternSet.MAX_PATTERN_LENGTH];
    assertEquals(PatternSet.MAX_PATTERN_LENGTH, PatternSet.of(List.of(longest), false, "t").maxLength());
    InputException e = assertThrows(InputException.class,
        () -> PatternSet.of(List.of(new byte[1], new byte[PatternSet.MAX_PATTERN_LENGTH + 1]), false, "t"));
    assertEquals("t: pattern 2 is 65537 bytes, longer than the 65536-byte limit. Fix: shorten the pattern",
        e.getMessage());
  }

  @Test
  void rejectsASetOverTheTotalByteLimit() {
    byte[] longest = new byte[PatternSet.MAX_PATTERN_LENGTH];
    List<byte[]> patterns = new ArrayList<>(Collections.nCopies(256, longest));
    patterns.add(new byte[1]);
    InputException e = assertThrows(InputException.class, () -> PatternSet.of(patterns, false, "t"));
    assertTrue(e.getMessage().contains("16777216-byte total limit at pattern 257. Fix: split"), e.getMessage());
  }

  @Test
  void rejectsASetOverThePatternCountLimit() {
    List<byte[]> patterns = Collections.nCopies(PatternSet.MAX_PATTERNS + 1, new byte[] {'x'});
    InputException e = assertThrows(InputException.class, () -> PatternSet.of(patterns, false, "t"));
    assertEquals("t: 1048577 patterns exceed the limit of 1048576. Fix: split the patterns into several files and "
        + "scan once per file", e.getMessage());
  }

  @Test
  void copiesItsInput() {
    byte[] pattern = bytes("abc");
    PatternSet set = PatternSet.of(List.of(pattern), false, "t");
    pattern[0] = 'z';
    assertArrayEquals(bytes("abc"), set.pattern(0));
  }

  /** Command-line patterns as their bytes: FF stays FF (not U+FFFD's EF BF BD), LF still splits. */
  @Test
  void argumentBytesThatAreNotUtf8AreKeptAndSplitAtNewlines() {
    List<byte[]> lines = PatternSet.argumentByteLines("-e", List.of(new byte[] {(byte) 0xff, '\n', 'a'}));
    assertEquals(2, lines.size());
    assertArrayEquals(new byte[] {(byte) 0xff}, lines.get(0));
    assertArrayEquals(bytes("a"), lines.get(1));
    InputException trailing = assertThrows(InputException.class,
        () -> PatternSet.argumentByteLines("-e", List.of(new byte[] {(byte) 0xff, '\n'})));
    assertTrue(trailing.getMessage().contains("the newline at its end"), trailing.getMessage());
  }
}
