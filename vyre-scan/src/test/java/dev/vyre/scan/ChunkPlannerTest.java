package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.dfa.Hit;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ChunkPlannerTest {

  private static String grepMissing;

  @BeforeContainer
  static void probeGrep() {
    try {
      Process grep = new ProcessBuilder("grep", "-V").redirectErrorStream(true).start();
      grep.getInputStream().readAllBytes();
      grepMissing = grep.waitFor() == 0 ? null : "grep -V exited with " + grep.exitValue();
    } catch (IOException | InterruptedException e) {
      grepMissing = "grep cannot run: " + e;
    }
    if (grepMissing != null) {
      System.out.println("ChunkPlannerTest: skipping the grep differential property: " + grepMissing);
    }
  }

  @Test
  void chunksOwnDisjointEndRangesAndStartOverlapBytesEarly() {
    ChunkPlanner plan = ChunkPlanner.of(10, 4, 3);
    assertEquals(2, plan.overlap());
    assertEquals(6, plan.maxReadBytes());
    assertEquals(List.of(new ChunkPlanner.Chunk(0, 0, 4, 0), new ChunkPlanner.Chunk(1, 2, 6, 2),
        new ChunkPlanner.Chunk(2, 6, 4, 2)), plan.chunks());
    assertEquals(List.of(new ChunkPlanner.Chunk(0, 0, 3, 0)), ChunkPlanner.of(3, 4, 9).chunks());
    assertEquals(new ChunkPlanner.Chunk(1, 0, 2, 1), ChunkPlanner.of(4, 1, 9).chunk(1), "overlap clamps at 0");
    assertEquals(List.of(), ChunkPlanner.of(0, 4, 3).chunks());
    assertEquals(0, ChunkPlanner.of(5, 8, 1).overlap());
  }

  @Test
  void aRangeOwnsTheMatchEndsInItAndReadsItsOverlapBeforeItsStart() {
    ChunkPlanner plan = new ChunkPlanner(5, 12, 4, 2);
    assertEquals(2, plan.chunkCount());
    assertEquals(List.of(new ChunkPlanner.Chunk(0, 3, 6, 2), new ChunkPlanner.Chunk(1, 7, 5, 2)), plan.chunks());
    assertEquals(new ChunkPlanner.Chunk(0, 0, 5, 1), new ChunkPlanner(1, 5, 8, 3).chunk(0), "overlap clamps at 0");
    assertEquals(List.of(), new ChunkPlanner(7, 7, 4, 2).chunks());
    InputException e = assertThrows(InputException.class, () -> new ChunkPlanner(8, 7, 4, 2));
    assertTrue(e.getMessage().startsWith("chunk plan: the range 8..7 is not a range of bytes"), e.getMessage());
  }

  /** Ranges that tile an input, each planned on its own, find what one plan of the whole input finds. */
  @Property(tries = 300)
  void rangesThatTileAnInputReportEveryMatchOnce(@ForAll("cases") ScanFixtures.Case c,
      @ForAll @IntRange(min = 1, max = 9) int chunkBytes, @ForAll @IntRange(min = 1, max = 12) int rangeBytes) {
    PatternSet set = c.patternSet();
    List<ChunkPlanner> ranges = new ArrayList<>();
    for (long from = 0; from < c.input().length; from += rangeBytes) {
      ranges.add(new ChunkPlanner(from, Math.min(c.input().length, from + rangeBytes), chunkBytes, set.maxLength() - 1));
    }
    assertEquals(NaiveMatcher.findAll(set, c.input(), 4), ScanFixtures.scanPlans(set, c.input(), ranges, 4));
  }

  @Test
  void rejectsPlansWhoseReadsDoNotFitAU32Range() {
    InputException e = assertThrows(InputException.class, () -> ChunkPlanner.of(10, 0, 3));
    assertTrue(e.getMessage().startsWith("chunk plan: input length 10, chunk size 0 and overlap 2"), e.getMessage());
    assertThrows(InputException.class, () -> ChunkPlanner.of(10, 0xFFFF_FFFFL, 2));
    assertThrows(InputException.class, () -> ChunkPlanner.of(-1, 4, 2));
  }

  @Property(tries = 400)
  void chunkedScanReportsEveryMatchOnceAcrossBoundaries(@ForAll("cases") ScanFixtures.Case c,
      @ForAll @IntRange(min = 1, max = 9) int chunkBytes) {
    PatternSet set = c.patternSet();
    assertEquals(NaiveMatcher.findAll(set, c.input(), 4), ScanFixtures.scanChunked(set, c.input(), chunkBytes, 4));
  }

  @Test
  void grepReportsLeftmostLongestWhichWeContain() throws IOException, InterruptedException {
    Assumptions.assumeTrue(grepMissing == null, grepMissing);
    ScanFixtures.Case c = new ScanFixtures.Case(List.of(ScanFixtures.bytes("he"), ScanFixtures.bytes("she"),
        ScanFixtures.bytes("hers")), false, ScanFixtures.bytes("ushers\nhe"));
    assertEquals(List.of("1:she", "7:he"), grep(c));
    assertEquals(List.of(new Hit(0, 1, 1), new Hit(0, 2, 0), new Hit(0, 2, 2), new Hit(0, 7, 0)),
        ScanFixtures.scanChunked(c.patternSet(), c.input(), 3, 0));
  }

  /** grep reports leftmost-longest, non-overlapping matches; each must be among ours. */
  @Property(tries = 60)
  void everyGrepMatchIsAmongTheChunkedHits(@ForAll("textCases") ScanFixtures.Case c,
      @ForAll @IntRange(min = 1, max = 64) int chunkBytes) throws IOException, InterruptedException {
    Assume.that(grepMissing == null);
    PatternSet set = c.patternSet();
    Set<Hit> ours = new HashSet<>(ScanFixtures.scanChunked(set, c.input(), chunkBytes, 0));
    List<String> grepLines = grep(c);
    for (String line : grepLines) {
      int colon = line.indexOf(':');
      long start = Long.parseLong(line.substring(0, colon));
      byte[] text = line.substring(colon + 1).getBytes(StandardCharsets.ISO_8859_1);
      boolean found = false;
      for (int id = 0; id < set.size() && !found; id++) {
        found = ours.contains(new Hit(0, start, id)) && matches(set, id, text);
      }
      assertTrue(found, "grep match " + line + " missing from " + ours);
    }
  }

  private static boolean matches(PatternSet set, int id, byte[] text) {
    byte[] folded = text.clone();
    for (int i = 0; set.caseInsensitive() && i < folded.length; i++) {
      folded[i] = (byte) PatternSet.foldByte(folded[i] & 0xFF);
    }
    return Arrays.equals(set.matchBytes(id), folded);
  }

  private static List<String> grep(ScanFixtures.Case c) throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("vyre-grep");
    try {
      Path patterns = dir.resolve("patterns");
      Path input = Files.write(dir.resolve("input"), c.input());
      List<byte[]> lines = new ArrayList<>();
      c.patterns().forEach(lines::add);
      Files.write(patterns, String.join("\n", lines.stream().map(p -> new String(p, StandardCharsets.ISO_8859_1))
          .toList()).concat("\n").getBytes(StandardCharsets.ISO_8859_1));
      List<String> command = new ArrayList<>(List.of("grep", "-F", "-o", "-b", "-a"));
      if (c.caseInsensitive()) {
        command.add("-i");
      }
      command.addAll(List.of("-f", patterns.toString(), input.toString()));
      ProcessBuilder builder = new ProcessBuilder(command);
      builder.environment().put("LC_ALL", "C");
      Process grep = builder.start();
      byte[] out = grep.getInputStream().readAllBytes();
      int status = grep.waitFor();
      assertTrue(status == 0 || status == 1, "grep failed with " + status + ": "
          + new String(grep.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
      String text = new String(out, StandardCharsets.ISO_8859_1);
      return text.isEmpty() ? List.of() : Arrays.asList(text.split("\n"));
    } finally {
      try (var files = Files.list(dir)) {
        for (Path file : files.toList()) {
          Files.delete(file);
        }
      }
      Files.delete(dir);
    }
  }

  @Provide
  Arbitrary<ScanFixtures.Case> cases() {
    return ScanFixtures.cases(new byte[] {'a', 'b', 'c', 'B', (byte) 0xFE}, 6, 60);
  }

  /** Text for grep: patterns without newlines, input with some, so lines matter to grep. */
  @Provide
  Arbitrary<ScanFixtures.Case> textCases() {
    return ScanFixtures.cases(ScanFixtures.bytes("abcAB "), ScanFixtures.bytes("abcAB \n"), 5, 300);
  }
}
