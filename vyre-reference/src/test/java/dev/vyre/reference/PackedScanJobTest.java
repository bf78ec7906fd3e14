package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.FileResult;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import dev.vyre.scan.ScanSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Small files packed several to a chunk: each file's hits reach that file alone, a file whose read
 * fails drops out of its chunk while its neighbours are scanned, a packed file that shrank is
 * scanned as far as it was read, a packed chunk that only counts, whose hits overflow, is
 * rescanned (the cursor alone cannot be split between its files), and files are packed only as far
 * as their matches always fit a hit buffer.
 */
class PackedScanJobTest {

  private static Megakernel kernel;

  @TempDir Path dir;

  @BeforeAll
  static void startKernel() {
    kernel = TestBackends.scanKernel();
  }

  @AfterAll
  static void stopKernel() {
    kernel.close();
  }

  private record Outcome(ScanSummary summary, List<FileResult> results) {}

  private static Outcome scan(List<String> patterns, ScanOptions options, List<ScanFile> files) {
    List<FileResult> results = new ArrayList<>();
    try (ScanJob job = new ScanJob(kernel, AhoCorasickCompiler.compile(PatternSet.fromArguments(patterns, false)),
        options)) {
      return new Outcome(job.run(files, results::add), results);
    }
  }

  @Test
  void aFailedReadLeavesItsChunkAndAShrunkFileCountsWhatWasRead() throws Exception {
    List<ScanFile> files = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Path path = i == 19 ? Files.createDirectory(dir.resolve("d" + i)) : Files.writeString(dir.resolve("f" + i),
          "needle ".repeat(i % 4));
      files.add(new ScanFile(path, i == 19 ? 64 : Files.size(path)));
    }
    Path shrank = Files.writeString(dir.resolve("shrank"), "needle");
    files.add(20, new ScanFile(shrank, 60));
    Outcome outcome = scan(List.of("needle", "e"), new ScanOptions(4096, 256, 2, true), files);
    assertEquals(1, outcome.summary().failedFiles());
    assertEquals("read failed at offset 0: Is a directory", outcome.results().get(19).error());
    for (int i = 0; i < files.size(); i++) {
      FileResult result = outcome.results().get(i);
      long needles = i == 20 ? 1 : i == 19 ? 0 : (i > 20 ? i - 1 : i) % 4;
      assertEquals(4 * needles, result.matches(), "file " + i + ": needle and its three e");
      for (int h = 0; h < result.hits().size(); h++) {
        assertTrue(result.hits().start(h) < Files.size(files.get(i).path()), "a hit of file " + i + " lies inside it");
      }
    }
    assertEquals(files.stream().filter(f -> f.size() != 64).mapToLong(f -> f.path().toFile().length()).sum(),
        outcome.summary().bytes(), "bytes scanned are the bytes read");
  }

  @Test
  void filesWhoseMatchesTogetherCouldOverflowAHitBufferAreNotPacked() throws Exception {
    // Alone, each file is counted by its chunk's cursor; packed together, their matches would have
    // to be read back, and more of them than the largest hit buffer holds would fail both files.
    List<String> patterns = new ArrayList<>();
    for (int length = 1; length <= 16; length++) {
      patterns.add("a".repeat(length));
    }
    List<ScanFile> files = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      files.add(new ScanFile(Files.writeString(dir.resolve("dense" + i), "a".repeat(600_000)), 600_000));
    }
    Outcome outcome = scan(patterns, ScanOptions.defaults().withKeepHits(false), files);
    assertTrue(2 * (16L * 600_000 - 16 * 15 / 2) > ScanJob.MAX_HIT_CAPACITY);
    for (FileResult result : outcome.results()) {
      assertNull(result.error());
      assertEquals(16L * 600_000 - 16 * 15 / 2, result.matches());
    }
  }

  /** Counting tasks add to a counter per packed file on the device: hits far beyond a hit buffer need no rescan. */
  @Test
  void aCountingPackedChunkCountsDenseHitsWithoutARescan() throws Exception {
    List<ScanFile> files = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Path path = Files.writeString(dir.resolve("dense" + i), "a".repeat(1000 + i));
      files.add(new ScanFile(path, 1000 + i));
    }
    Outcome outcome = scan(List.of("a", "aa"), new ScanOptions(16 << 10, 4 << 10, 1, false), files);
    assertEquals(0, outcome.summary().rescans(), "counts need no hit buffer");
    for (int i = 0; i < files.size(); i++) {
      assertNull(outcome.results().get(i).hits());
      assertEquals(2L * (1000 + i) - 1, outcome.results().get(i).matches(), "file " + i);
    }
  }
}
