package dev.vyre.reference;

import static dev.vyre.reference.StreamingScanJobTest.bytes;
import static dev.vyre.reference.StreamingScanJobTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.dfa.Hit;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.FileResult;
import dev.vyre.scan.HitList;
import dev.vyre.scan.NaiveMatcher;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import dev.vyre.scan.ScanSink;
import dev.vyre.scan.ScanSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Small files read by several pack-reader threads at once, or by the job's thread alone: whatever
 * the number of threads, every file gets exactly its own matches (those of a tree of many small
 * files, files of a chunk's size and one byte more, files that straddle several chunks, empty,
 * vanished and unreadable files, a file that shrank), in the order given; a sink that has a file's
 * answer stops it as without pack readers; a stopped run leaves the job whole; and closing the job
 * stops its threads.
 */
class PackReadersTest {

  private static final int CHUNK = 8192;
  private static final PatternSet PATTERNS = PatternSet.of(List.of(bytes("bcdefabc"), bytes("f"), bytes("cd"),
      bytes("abcdef"), bytes("e\nab")), false, "t");
  private static Megakernel kernel;

  @TempDir Path dir;
  private final List<byte[]> contents = new ArrayList<>();
  private final List<ScanFile> files = new ArrayList<>();

  @BeforeAll
  static void start() {
    kernel = TestBackends.scanKernel();
  }

  @AfterAll
  static void stop() {
    kernel.close();
  }

  /** About 500 files, most a few hundred bytes, with the odd cases among them at random places. */
  @BeforeEach
  void writeTree() throws IOException {
    Random random = new Random(26);
    for (int i = 0; i < 500; i++) {
      int size = switch (i % 50) {
        case 7 -> CHUNK;
        case 8 -> CHUNK + 1;
        case 9 -> 3 * CHUNK + CHUNK / 2;
        case 10 -> 0;
        default -> 1 + random.nextInt(i % 3 == 0 ? 3000 : 400);
      };
      byte[] text = text(random, size);
      Path path = Files.write(dir.resolve("f" + i), text);
      long listed = size;
      if (i == 77) {
        Files.delete(path);
        text = new byte[0];
      } else if (i == 123) {
        Files.delete(path);
        Files.createDirectory(path);
        text = new byte[0];
      } else if (i == 301) {
        // Shrank since it was listed: scanned as far as it reads.
        Files.write(path, text = text(random, 50));
      }
      contents.add(text);
      files.add(new ScanFile(path, listed));
    }
  }

  @Test
  void everyFileGetsItsOwnMatchesWithOneOrManyThreads() {
    DfaTable table = AhoCorasickCompiler.compile(PATTERNS);
    for (int readers : new int[] {0, 1, 3, 8}) {
      for (boolean staged : new boolean[] {false, true}) {
        String mode = readers + " pack readers, staged " + staged;
        List<FileResult> results = new ArrayList<>();
        boolean[] threadsRead = new boolean[1];
        ScanSummary summary;
        try (ScanJob job = new ScanJob(kernel, table, options(true).withStageOnDevice(staged).withPackReaders(readers))) {
          summary = job.run(files, result -> {
            results.add(result);
            threadsRead[0] |= Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith("vyre-scan-pack"));
          });
        }
        assertEquals(readers > 0, threadsRead[0], mode + ": packs were read by pack readers, or by the job's thread alone");
        assertEquals(files.size(), results.size(), mode);
        assertEquals(2, summary.failedFiles(), mode);
        for (int i = 0; i < files.size(); i++) {
          FileResult result = results.get(i);
          assertEquals(i, result.inputId(), mode);
          if (i == 77) {
            assertEquals("No such file or directory", result.error(), mode);
            assertTrue(result.openFailed(), mode);
          } else if (i == 123) {
            assertEquals("read failed at offset 0: Is a directory", result.error(), mode);
            assertFalse(result.openFailed(), mode);
          } else {
            assertNull(result.error(), mode + ", file " + i);
            assertEquals(NaiveMatcher.findAll(PATTERNS, contents.get(i), i), hits(i, result.hits()), mode + ", file " + i);
          }
        }
        assertEquals(contents.stream().mapToLong(c -> c.length).sum(), summary.bytes(), mode);
      }
    }
  }

  @Test
  void countingGivesTheSameCountsWithOneOrManyThreads() {
    DfaTable table = AhoCorasickCompiler.compile(PATTERNS);
    for (int readers : new int[] {0, 8}) {
      List<FileResult> results = new ArrayList<>();
      try (ScanJob job = new ScanJob(kernel, table, options(false).withPackReaders(readers))) {
        job.run(files, results::add);
      }
      for (int i = 0; i < files.size(); i++) {
        assertNull(results.get(i).hits());
        assertEquals(NaiveMatcher.findAll(PATTERNS, contents.get(i), i).size(), results.get(i).matches(),
            readers + " pack readers, file " + i);
      }
    }
  }

  /** As {@code vyre scan -m 2}: each file stops at its second match, the same with one thread or eight. */
  @Test
  void aSinkThatHasAFilesAnswerStopsItAsWithOneThread() {
    DfaTable table = AhoCorasickCompiler.compile(PATTERNS);
    List<List<Long>> seen = new ArrayList<>();
    for (int readers : new int[] {0, 8}) {
      List<Long> matches = new ArrayList<>();
      try (ScanJob job = new ScanJob(kernel, table, options(true).withPackReaders(readers))) {
        job.run(files, new ScanSink() {
          @Override
          public boolean found(ScanFile file, HitList hits, long total) {
            return total < 2;
          }

          @Override
          public void finished(FileResult result) {
            matches.add(result.matches());
          }
        });
      }
      assertEquals(files.size(), matches.size());
      seen.add(matches);
    }
    assertEquals(seen.get(0), seen.get(1), "no pack reader against eight");
  }

  /**
   * Stopped at its first file again and again with packs in flight on eight threads, the job passes
   * nothing more, and then scans every file; closed, its threads are gone.
   */
  @Test
  void aStoppedRunLeavesTheJobWholeAndClosingEndsItsThreads() {
    DfaTable table = AhoCorasickCompiler.compile(PATTERNS);
    try (ScanJob job = new ScanJob(kernel, table, options(false).withPackReaders(8))) {
      for (int round = 0; round < 30; round++) {
        List<FileResult> passed = new ArrayList<>();
        ScanSummary stopped = job.run(files, result -> {
          passed.add(result);
          job.stop();
        });
        assertEquals(1, passed.size(), "round " + round);
        assertEquals(1, stopped.files(), "round " + round);
      }
      List<FileResult> all = new ArrayList<>();
      ScanSummary whole = job.run(files, all::add);
      assertEquals(files.size(), whole.files());
      for (int i = 0; i < files.size(); i++) {
        assertEquals(NaiveMatcher.findAll(PATTERNS, contents.get(i), i).size(), all.get(i).matches(), "file " + i);
      }
    }
    assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().startsWith("vyre-scan-pack")),
        "no pack reader outlives its job");
  }

  private static ScanOptions options(boolean keepHits) {
    return new ScanOptions(CHUNK, 1024, 4, keepHits);
  }

  private static List<Hit> hits(int inputId, HitList list) {
    List<Hit> hits = new ArrayList<>();
    for (int h = 0; h < list.size(); h++) {
      hits.add(new Hit(inputId, list.start(h), list.patternId(h)));
    }
    hits.sort(null);
    return hits;
  }
}
