package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScanCorpusTest {

  @TempDir Path dir;

  private static byte[] generate(long size, List<String> literals, long seed) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment target = arena.allocate(size);
      ScanCorpus.fill(target, literals, seed);
      return target.toArray(ValueLayout.JAVA_BYTE);
    }
  }

  @Test
  void literalsAreDistinctLowercaseWordsOfEightToSixteenLetters() {
    List<String> literals = ScanCorpus.literals(ScanCorpus.DEFAULT_LITERALS, ScanCorpus.DEFAULT_SEED);
    assertEquals(100, literals.size());
    assertEquals(100, new HashSet<>(literals).size());
    for (String literal : literals) {
      assertTrue(literal.matches("[a-z]{8,16}"), literal);
    }
    assertEquals(literals, ScanCorpus.literals(100, ScanCorpus.DEFAULT_SEED));
    assertNotEquals(literals, ScanCorpus.literals(100, 1));
  }

  @Test
  void theSameSeedGivesTheSameBytesInMemoryAndOnDisk() throws IOException {
    List<String> literals = ScanCorpus.literals(10, 5);
    byte[] memory = generate(3_000_001, literals, 5);
    Path file = dir.resolve("corpus");
    ScanCorpus.write(file, 3_000_001, literals, 5);
    assertArrayEquals(memory, Files.readAllBytes(file));
    assertArrayEquals(generate(1000, literals, 5), Arrays.copyOf(memory, 1000), "a prefix is a prefix");
    ScanCorpus.writePatterns(dir.resolve("patterns"), literals);
    assertEquals(literals, Files.readAllLines(dir.resolve("patterns")), "one literal per line, for grep -f");
  }

  @Test
  void textIsWordsAndLinesWithPlantedLiterals() {
    List<String> literals = ScanCorpus.literals(100, ScanCorpus.DEFAULT_SEED);
    String text = new String(generate(1 << 20, literals, ScanCorpus.DEFAULT_SEED), StandardCharsets.US_ASCII);
    assertTrue(text.chars().allMatch(c -> c == ' ' || c == '\n' || (c >= 'a' && c <= 'z')));
    long lines = text.chars().filter(c -> c == '\n').count();
    assertTrue(lines > (1 << 20) / 100 && lines < (1 << 20) / 60, "lines of about 72 bytes: " + lines);
    long planted = literals.stream().mapToLong(l -> text.split(l, -1).length - 1).sum();
    assertTrue(planted > 1000, "about one word in 100 is a literal: " + planted);
  }
}
