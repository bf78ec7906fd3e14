package dev.vyre.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Backends;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.FileResult;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import dev.vyre.scan.ScanTargets;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * vyre scan across real process boundaries: a Spark {@code local-cluster} with two executor JVMs,
 * each running its own kernel (reference backend), scans a generated tree whose large files cross
 * many split boundaries, with a match of every pattern planted across each boundary, and its
 * DataFrame equals what the scan engine finds in this JVM in one job over the whole files, as
 * {@code vyre scan} runs it.
 */
class VyreSparkClusterTest {

  /** Overlapping patterns, the longest 22 bytes: its overlap reaches 21 bytes back over each boundary. */
  private static final List<String> PATTERNS = List.of("needle-in-the-haystack", "needle", "ab", "a", "stack\nne");
  private static Path tree;
  /** What one job of the scan engine finds in this JVM: "path offset pattern_id" lines. */
  private static Set<String> expected;

  @BeforeAll
  static void generateTree() throws IOException {
    tree = Files.createDirectories(Path.of("target", "spark-tree")).toAbsolutePath();
    Random random = new Random(26);
    long split = SparkCluster.SPLIT_BYTES;
    write(tree.resolve("big.txt"), (int) (9 * split + 123), random);
    write(tree.resolve("exact.txt"), (int) split, random);
    write(tree.resolve("one-more.txt"), (int) split + 1, random);
    write(tree.resolve("empty.txt"), 0, random);
    Path nested = Files.createDirectories(tree.resolve("logs/2026"));
    for (int i = 0; i < 12; i++) {
      write(nested.resolve("part-" + i + ".log"), 100 + random.nextInt(900), random);
    }
    write(nested.resolve("large.log"), (int) (3 * split + 7), random);
    expected = scannedInOneJob();
  }

  /**
   * Bytes over a small alphabet (matches of "a" and "ab" everywhere), with each pattern planted
   * across every split boundary, starting each possible number of bytes before it.
   */
  private static void write(Path file, int size, Random random) throws IOException {
    byte[] bytes = new byte[size];
    byte[] alphabet = "abx \n".getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < size; i++) {
      bytes[i] = alphabet[random.nextInt(alphabet.length)];
    }
    int boundary = 0;
    for (long b = SparkCluster.SPLIT_BYTES; b < size; b += SparkCluster.SPLIT_BYTES) {
      byte[] pattern = PATTERNS.get(boundary % PATTERNS.size()).getBytes(StandardCharsets.US_ASCII);
      int before = 1 + boundary % Math.max(1, pattern.length - 1);
      int at = (int) b - Math.min(before, pattern.length - 1);
      System.arraycopy(pattern, 0, bytes, at, Math.min(pattern.length, size - at));
      boundary++;
    }
    Files.write(file, bytes);
  }

  private static Set<String> scannedInOneJob() {
    ScanTargets targets = ScanTargets.walk(List.of(tree));
    Set<String> hits = new TreeSet<>();
    try (Megakernel kernel = Megakernel.builder().backend(Backends.select("reference")).slots(1024)
        .singlePriority(Priority.NORMAL).workers(2).bootstrap();
        ScanJob job = new ScanJob(kernel, AhoCorasickCompiler.compile(VyreScan.patternSet(PATTERNS)), ScanOptions.defaults())) {
      job.run(targets.files(), (FileResult result) -> {
        for (int i = 0; i < result.hits().size(); i++) {
          hits.add(result.file().path() + " " + result.hits().start(i) + " " + result.hits().patternId(i));
        }
      });
    }
    return hits;
  }

  @Test
  void theClusterFindsWhatOneJobFindsAcrossEverySplitBoundary() {
    SparkSession spark = SparkCluster.session();
    List<Row> rows = VyreScan.scan(spark, List.of(tree.toString()), PATTERNS).collectAsList();
    Set<String> clustered = new TreeSet<>();
    for (Row row : rows) {
      assertEquals(PATTERNS.get(row.getInt(2)), row.getString(3));
      clustered.add(row.getString(0) + " " + row.getLong(1) + " " + row.getInt(2));
    }
    assertEquals(expected.size(), rows.size(), "a match was reported twice");
    assertEquals(expected, clustered);
    for (String pattern : PATTERNS.stream().filter(p -> p.length() > 1).toList()) {
      int id = PATTERNS.indexOf(pattern);
      assertTrue(rows.stream().anyMatch(r -> r.getInt(2) == id && r.getString(0).endsWith("big.txt")
          && crossesABoundary(r.getLong(1), pattern.length())), pattern + " found across no boundary");
    }
  }

  private static boolean crossesABoundary(long start, int length) {
    return (start + length - 1) / SparkCluster.SPLIT_BYTES != start / SparkCluster.SPLIT_BYTES;
  }

  @Test
  void countsPerFileEqualTheMatchesAndKeepFilesWithoutOne() {
    SparkSession spark = SparkCluster.session();
    Map<String, Long> counted = new TreeMap<>();
    for (Row row : VyreScan.count(spark, List.of(tree.toString()), PATTERNS).collectAsList()) {
      counted.put(row.getString(0), row.getLong(1));
    }
    Map<String, Long> perFile = new TreeMap<>(expected.stream()
        .collect(Collectors.groupingBy(line -> line.substring(0, line.indexOf(' ')), Collectors.counting())));
    perFile.put(tree.resolve("empty.txt").toString(), 0L);
    assertEquals(perFile, counted);
  }

  @Test
  void theSqlFunctionsScanAFileNamedInARow() {
    SparkSession spark = SparkCluster.session();
    VyreScan.registerFunctions(spark);
    String big = tree.resolve("big.txt").toString();
    // From an RDD, not a local list: Spark evaluates a projection of a local list on the driver, which has no kernel.
    JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
    spark.createDataFrame(context.parallelize(List.of(RowFactory.create(big)), 1), new StructType().add("path",
        DataTypes.StringType)).createOrReplaceTempView("files");
    Row row = spark.sql("SELECT vyre_count(path, array('needle', 'ab')), vyre_matches(path, array('needle', 'ab'))"
        + " FROM files").collectAsList().getFirst();
    List<Row> matches = row.getList(1);
    assertEquals(row.getLong(0), matches.size());
    long needles = expected.stream().filter(line -> line.startsWith(big + " ") && line.endsWith(" 1")).count();
    assertEquals(needles, matches.stream().filter(m -> m.getInt(1) == 0).count());
    assertTrue(matches.stream().allMatch(m -> m.getString(2).equals(m.getInt(1) == 0 ? "needle" : "ab")));
  }

  @Test
  void eachExecutorIsAProcessOfItsOwnWithItsOwnKernel() {
    JavaSparkContext context = JavaSparkContext.fromSparkContext(SparkCluster.session().sparkContext());
    List<String> kernels = new ArrayList<>(context.parallelize(List.of(1, 2, 3, 4, 5, 6, 7, 8), 8)
        .map(i -> ProcessHandle.current().pid() + " " + ExecutorKernel.current().kernel().backendName()).collect());
    Set<String> distinct = new TreeSet<>(kernels);
    assertTrue(distinct.stream().allMatch(k -> k.endsWith(" reference")), distinct.toString());
    assertTrue(distinct.stream().noneMatch(k -> k.startsWith(ProcessHandle.current().pid() + " ")), "ran in the driver");
    assertNotEquals(0, distinct.size());
  }
}
