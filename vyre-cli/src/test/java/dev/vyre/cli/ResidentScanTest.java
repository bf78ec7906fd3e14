package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Backends;
import dev.vyre.runtime.Megakernel;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.FileResult;
import dev.vyre.scan.HitList;
import dev.vyre.scan.KernelResourcePool;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ResidentCorpus;
import dev.vyre.scan.ResidentScan;
import dev.vyre.scan.ResidentSizing;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanFilter;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import dev.vyre.scan.ScanSink;
import dev.vyre.scan.ScanSummary;
import dev.vyre.scan.ScanTargets;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ResidentScan} on the reference backend: over a corpus of small resources (files split into
 * overlapping pieces, small files packed, empty files), with chunks and tasks small enough that files
 * span many batches, it hands the sink exactly what a {@link ScanJob} reading the same files hands it
 * (every match in order, counts, -m's early stop), also after files change, appear and disappear;
 * targets it does not hold, and patterns longer than its pieces overlap for, are left to a job.
 */
class ResidentScanTest {

  private static final long SEGMENT_BYTES = 4096;
  private static final int MAX_PATTERN = 64;

  @TempDir Path dir;
  private Path tree;
  private Megakernel kernel;
  private KernelResourcePool pool;
  private ResidentCorpus corpus;

  @BeforeEach
  void start() throws IOException {
    tree = Files.createDirectory(dir.resolve("tree"));
    Random random = new Random(11);
    for (int f = 0; f < 30; f++) {
      Path sub = Files.createDirectories(tree.resolve("d" + f % 3));
      Files.write(sub.resolve("f" + f), text(random, f % 7 == 0 ? 20_000 + random.nextInt(9000) : random.nextInt(900)));
    }
    Files.write(tree.resolve("empty"), new byte[0]);
    ScanOptions options = ScanOptions.forBackend("reference");
    kernel = ScanCommand.bootstrap(Megakernel.builder().backend(Backends.select("reference")), options, options.ringSlots(), 2);
    pool = new KernelResourcePool(kernel);
    corpus = new ResidentCorpus(pool, tree, ScanFilter.NONE, SEGMENT_BYTES, MAX_PATTERN);
  }

  @AfterEach
  void stop() {
    corpus.close();
    kernel.close();
  }

  /** Words over few letters, so that overlapping patterns of several lengths match often. */
  private static byte[] text(Random random, int bytes) {
    byte[] text = new byte[bytes];
    for (int i = 0; i < bytes; i++) {
      int r = random.nextInt(12);
      text[i] = (byte) (r < 2 ? ' ' : r == 2 ? '\n' : "abcab".charAt(r % 5));
    }
    return text;
  }

  private static final List<String> PATTERNS = List.of("ab", "abca", "cabcabca", "b", "bcabcabcabcabcab");

  private static DfaTable table(List<String> patterns) {
    return AhoCorasickCompiler.compile(PatternSet.fromArguments(patterns, false));
  }

  /** Small chunks of small tasks: a file of 20 KiB spans several batches and every piece holds several tasks. */
  private static ScanOptions options(boolean keepHits) {
    return ScanOptions.of(1024, 128, 4, keepHits);
  }

  /** Each file's result with all its matches, as a job or the resident scan passed them. */
  private record Seen(List<String> results, ScanSummary summary) {}

  private static Seen collect(List<ScanFile> files, java.util.function.Function<ScanSink, ScanSummary> run, long maxHits) {
    List<String> results = new ArrayList<>();
    ScanSink sink = new ScanSink() {
      private final StringBuilder hits = new StringBuilder();

      @Override
      public boolean found(ScanFile file, HitList found, long total) {
        if (found != null) {
          for (int i = 0; i < found.size(); i++) {
            hits.append(found.start(i)).append(':').append(found.patternId(i)).append(' ');
          }
        }
        return total < maxHits;
      }

      @Override
      public void finished(FileResult result) {
        results.add(result.file().path() + " " + result.matches() + " " + result.error() + " [" + hits + "]");
        hits.setLength(0);
      }
    };
    return new Seen(results, run.apply(sink));
  }

  /**
   * A counting scan past -m may count more than a job (ResidentScan): what vyre scan prints, at most
   * the limit, is compared.
   */
  private static List<String> printed(Seen seen, boolean keepHits, long maxHits) {
    if (keepHits || maxHits == Long.MAX_VALUE) {
      return seen.results();
    }
    return seen.results().stream().map(line -> {
      String[] parts = line.split(" ", 3);
      return parts[0] + " " + Math.min(Long.parseLong(parts[1]), maxHits) + " " + parts[2];
    }).toList();
  }

  private void assertSameAsJob(List<String> patterns, boolean keepHits, long maxHits) {
    DfaTable table = table(patterns);
    ScanOptions options = options(keepHits);
    List<ScanFile> files = ScanTargets.walk(List.of(tree)).files();
    Seen fromDisk;
    try (ScanJob job = new ScanJob(pool, table, options)) {
      fromDisk = collect(files, sink -> job.run(files, sink), maxHits);
    }
    Seen resident;
    try (ResidentScan scan = ResidentScan.open(corpus, table, options, files)) {
      assertNotNull(scan, "the corpus holds every file of its own tree");
      resident = collect(files, sink -> scan.run(files, sink), maxHits);
    }
    assertEquals(printed(fromDisk, keepHits, maxHits), printed(resident, keepHits, maxHits),
        "patterns " + patterns + ", keepHits " + keepHits);
    if (maxHits == Long.MAX_VALUE) {
      assertEquals(fromDisk.summary().matches(), resident.summary().matches());
    }
    assertEquals(fromDisk.summary().files(), resident.summary().files());
    assertTrue(fromDisk.summary().matches() > 1000, "the tree matches often: " + fromDisk.summary());
  }

  @Test
  void passesWhatAJobReadingTheFilesPasses() {
    assertTrue(corpus.deviceBytes() >= 4 * SEGMENT_BYTES, "files larger than a resource are split: " + corpus.describe());
    assertSameAsJob(PATTERNS, true, Long.MAX_VALUE);
    assertSameAsJob(PATTERNS, false, Long.MAX_VALUE);
    assertSameAsJob(List.of("a"), true, Long.MAX_VALUE);
    assertSameAsJob(PATTERNS, true, 5);
    assertSameAsJob(PATTERNS, false, 1);
  }

  /**
   * Patterns that match at every byte but newlines, several at some: the counting scan's per-file
   * counters, read back many times in the scan (it spans many windows of batches), equal the
   * records a job reads.
   */
  @Test
  void countsDenseMatchesAsAJobReadsTheirRecords() {
    List<String> everyByte = List.of("a", "b", "c", " ", "ab", "abca", "bc");
    assertSameAsJob(everyByte, true, Long.MAX_VALUE);
    assertSameAsJob(everyByte, false, Long.MAX_VALUE);
    assertSameAsJob(everyByte, false, 3);
  }

  /**
   * On a kernel with more lanes than a chunk's tasks per batch in flight, a counting scan's batches
   * grow to four tasks per lane, as far as the resident ring holds them, and count the same.
   */
  @Test
  void countingBatchesKeepFourTasksPerLaneInFlight() throws IOException {
    stop();
    ScanOptions options = options(false);
    kernel = ScanCommand.bootstrap(Megakernel.builder().backend(Backends.select("reference")), options,
        ResidentSizing.ringSlots(options), 16);
    pool = new KernelResourcePool(kernel);
    corpus = new ResidentCorpus(pool, tree, ScanFilter.NONE, SEGMENT_BYTES, MAX_PATTERN);
    long lanes = (long) kernel.workerGroups() * kernel.lanesPerWorkerGroup();
    assertEquals(Math.min(4 * lanes / options.buffers(), kernel.slotCount() / options.buffers()),
        ResidentSizing.countBatchTasks(kernel, options));
    assertTrue(ResidentSizing.countBatchTasks(kernel, options) > options.tasksPerChunk(), kernel.describe());
    assertSameAsJob(List.of("a", "b", "c", " ", "ab", "abca", "bc"), false, Long.MAX_VALUE);
    assertSameAsJob(PATTERNS, false, 1);
  }

  @Test
  void seesFilesThatChangedAppearedOrWentBeforeEachScan() throws IOException {
    assertSameAsJob(PATTERNS, true, Long.MAX_VALUE);
    Path changed = tree.resolve("d1").resolve("f1");
    Files.write(changed, "abcabcabca abca".getBytes(StandardCharsets.US_ASCII));
    Path sameSize = tree.resolve("d0").resolve("f0");
    byte[] bytes = Files.readAllBytes(sameSize);
    java.util.Arrays.fill(bytes, (byte) 'b');
    FileTime before = Files.getLastModifiedTime(sameSize);
    Files.write(sameSize, bytes);
    Files.setLastModifiedTime(sameSize, FileTime.fromMillis(before.toMillis() + 5000));
    Files.write(tree.resolve("d2").resolve("new"), text(new Random(3), 9000));
    Files.delete(tree.resolve("d2").resolve("f2"));
    assertSameAsJob(PATTERNS, true, Long.MAX_VALUE);
    assertSameAsJob(PATTERNS, false, Long.MAX_VALUE);
    assertTrue(corpus.describe().contains("0 loaded, 0 reloaded, 0 dropped"), "the second scan found nothing new: "
        + corpus.describe());
  }

  @Test
  void reloadsUntilDeadBytesOutweighTheLiveThenLoadsAfresh() throws IOException {
    Path big = tree.resolve("d0").resolve("f0");
    for (int round = 0; round < 6; round++) {
      Files.write(big, text(new Random(round), 30_000));
      Files.setLastModifiedTime(big, FileTime.fromMillis(1_000_000L * (round + 1)));
      assertSameAsJob(PATTERNS, true, Long.MAX_VALUE);
    }
    long live = corpus.bytes();
    assertTrue(corpus.deviceBytes() <= 3 * live + 2 * SEGMENT_BYTES, "dead bytes are dropped: " + corpus.describe());
  }

  @Test
  void leavesToAJobWhatItDoesNotHold() throws IOException {
    Path outside = Files.writeString(dir.resolve("outside"), "abc");
    List<ScanFile> files = new ArrayList<>(ScanTargets.walk(List.of(tree)).files());
    files.add(new ScanFile(outside, 3));
    assertNull(ResidentScan.open(corpus, table(PATTERNS), options(true), files));
    List<ScanFile> inside = ScanTargets.walk(List.of(tree)).files();
    assertNull(ResidentScan.open(corpus, table(List.of("a".repeat(MAX_PATTERN + 1))), options(true), inside),
        "pieces overlap for patterns of at most " + MAX_PATTERN + " bytes");
    assertTrue(!corpus.lock().isLocked(), "a scan it declined leaves the corpus unlocked");
    try (ResidentScan scan = ResidentScan.open(corpus, table(PATTERNS), options(true), inside)) {
      assertNotNull(scan);
    }
  }
}
