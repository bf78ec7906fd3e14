package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.scan.HitList;
import dev.vyre.scan.PatternSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The line numbers ({@code -n}) and whole words ({@code -w}) read around a file's matches. */
class HitContextTest {

  @TempDir Path dir;

  @Test
  void newlinesCountedEightBytesAtATimeEqualOneAtATime() {
    Random random = new Random(5);
    for (int round = 0; round < 200; round++) {
      byte[] bytes = new byte[random.nextInt(100)];
      for (int i = 0; i < bytes.length; i++) {
        // Newlines, their neighbours 0x09/0x0B, 0x8A (high bit) and anything.
        int kind = random.nextInt(5);
        bytes[i] = (byte) (kind == 0 ? '\n' : kind == 1 ? 0x0B : kind == 2 ? 0x8A : kind == 3 ? 0x09 : random.nextInt(256));
      }
      int begin = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
      int end = begin + random.nextInt(bytes.length - begin + 1);
      long expected = 0;
      for (int i = begin; i < end; i++) {
        expected += bytes[i] == '\n' ? 1 : 0;
      }
      assertEquals(expected, HitContext.newlines(bytes, begin, end));
    }
  }

  /** Every occurrence of "ab" in a file of random lines larger than several blocks, against a plain count. */
  @Test
  void linesAndWholeWordsAcrossBlocksEqualAPlainReading() throws IOException {
    Random random = new Random(7);
    StringBuilder text = new StringBuilder();
    String[] pieces = {"ab", "ab", "x", " ", "\n", "_", "-"};
    while (text.length() < 300_000) {
      text.append(pieces[random.nextInt(pieces.length)]);
    }
    String content = text.toString();
    Path file = Files.writeString(dir.resolve("f"), content);
    HitList hits = new HitList();
    List<Long> lines = new ArrayList<>();
    List<Long> wordLines = new ArrayList<>();
    HitList words = new HitList();
    long line = 1;
    for (int i = 0; i < text.length(); i++) {
      if (content.startsWith("ab", i)) {
        hits.add(i, 0);
        lines.add(line);
        if ((i == 0 || !HitContext.isWordByte(text.charAt(i - 1)))
            && (i + 2 == text.length() || !HitContext.isWordByte(text.charAt(i + 2)))) {
          words.add(i, 0);
          wordLines.add(line);
        }
      }
      line += text.charAt(i) == '\n' ? 1 : 0;
    }
    PatternSet ab = PatternSet.fromArguments(List.of("ab"), false);
    HitList all = new HitList();
    assertArrayEquals(lines.stream().mapToLong(Long::longValue).toArray(),
        locate(new HitContext(ab, true, false), file, hits, all));
    assertEquals(hits.size(), all.size());
    HitList whole = new HitList();
    assertArrayEquals(wordLines.stream().mapToLong(Long::longValue).toArray(),
        locate(new HitContext(ab, true, true), file, hits, whole));
    assertEquals(words.size(), whole.size());
    for (int i = 0; i < words.size(); i++) {
      assertEquals(words.start(i), whole.start(i));
    }
  }

  /**
   * Reads {@code file} again for every hit, in order, in one {@link HitContext.Reading} as a scan's
   * chunks do; returns the lines of the hits that count and adds those hits to {@code kept}.
   */
  private static long[] locate(HitContext context, Path file, HitList hits, HitList kept) throws IOException {
    List<Long> lines = new ArrayList<>();
    try (HitContext.Reading reading = context.open(file)) {
      for (int i = 0; i < hits.size(); i++) {
        long line = reading.locate(hits.start(i), hits.patternId(i));
        if (line >= 0) {
          kept.add(hits.start(i), hits.patternId(i));
          lines.add(line);
        }
      }
    }
    return lines.stream().mapToLong(Long::longValue).toArray();
  }

  /** A file that shrank after its scan: what lies past its end is the end (a word boundary, no newlines). */
  @Test
  void matchesPastTheEndOfAFileThatShrankAreAtItsEnd() throws IOException {
    Path file = Files.writeString(dir.resolve("f"), "ab\nab");
    HitList hits = new HitList();
    hits.add(3, 0);
    hits.add(10, 0);
    HitList kept = new HitList();
    assertArrayEquals(new long[] {2, 2}, locate(new HitContext(PatternSet.fromArguments(List.of("ab"), false), true, true),
        file, hits, kept));
    assertEquals(2, kept.size());
  }
}
