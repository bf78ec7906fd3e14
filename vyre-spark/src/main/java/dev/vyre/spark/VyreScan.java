package dev.vyre.spark;

import dev.vyre.driver.error.InputException;
import dev.vyre.scan.PatternSet;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.network.util.JavaUtils;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code vyre scan} as a Spark job: every occurrence of literal patterns in the files under some
 * paths, found by the executors' kernels ({@link VyrePlugin}). The driver lists the files and cuts
 * them into splits ({@link SplitPlanner}); each task scans its splits with the engine {@code vyre
 * scan} runs. A split owns the matches that end in it and reads the longest pattern's length - 1
 * bytes before its start, so a match across a split boundary is reported once, by the split it
 * ends in, at the offset where it starts. Patterns are matched as their UTF-8 bytes, case
 * sensitively; {@code pattern_id} is a pattern's index in the list.
 */
public final class VyreScan {

  /** Bytes per split and per partition of small files (default 128m, as Spark's file sources). */
  public static final String SPLIT_BYTES = "spark.vyre.scan.splitBytes";
  public static final String DEFAULT_SPLIT_BYTES = "128m";

  /** The rows of {@link #scan}: one per match. */
  public static final StructType MATCHES = new StructType()
      .add("path", DataTypes.StringType, false)
      .add("offset", DataTypes.LongType, false)
      .add("pattern_id", DataTypes.IntegerType, false)
      .add("pattern", DataTypes.StringType, false);

  /** The rows of {@link #count}: one per file. */
  public static final StructType COUNTS = new StructType()
      .add("path", DataTypes.StringType, false)
      .add("matches", DataTypes.LongType, false);

  private VyreScan() {}

  /** Every match of {@code patterns} in the files under {@code paths}: (path, offset, pattern_id, pattern). */
  public static Dataset<Row> scan(SparkSession spark, List<String> paths, List<String> patterns) {
    return spark.createDataFrame(run(spark, paths, patterns, true), MATCHES);
  }

  /** How many matches each file under {@code paths} holds: (path, matches), files without one included. */
  public static Dataset<Row> count(SparkSession spark, List<String> paths, List<String> patterns) {
    return spark.createDataFrame(run(spark, paths, patterns, false), COUNTS)
        .groupBy("path").agg(functions.sum("matches").as("matches"));
  }

  /** Registers the SQL functions {@code vyre_count(path, patterns)} and {@code vyre_matches(path, patterns)} ({@link ScanFunctions}). */
  public static void registerFunctions(SparkSession spark) {
    ScanFunctions.register(spark);
  }

  private static JavaRDD<Row> run(SparkSession spark, List<String> paths, List<String> patterns, boolean keepHits) {
    requirePlugin(spark);
    List<String> given = List.copyOf(patterns);
    // Rejected here, once, rather than by every task.
    patternSet(given);
    long splitBytes = JavaUtils.byteStringAsBytes(spark.conf().get(SPLIT_BYTES, DEFAULT_SPLIT_BYTES));
    List<List<FileSplit>> partitions = SplitPlanner.partitions(paths, splitBytes);
    JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
    // One partition's splits per slice, so each task scans what the planner grouped.
    return context.parallelize(partitions, Math.max(1, partitions.size())).flatMap(new PartitionScan(given, keepHits));
  }

  /** The patterns as {@code vyre scan -e} takes them, one pattern per string, as UTF-8 bytes. */
  static PatternSet patternSet(List<String> patterns) {
    return PatternSet.of(patterns.stream().map(p -> p.getBytes(StandardCharsets.UTF_8)).toList(), false, "patterns");
  }

  /** Fails on the driver, before any task, when the executors will have no kernel. */
  private static void requirePlugin(SparkSession spark) {
    String plugins = spark.sparkContext().getConf().get("spark.plugins", "");
    if (!Arrays.asList(plugins.split("\\s*,\\s*")).contains(VyrePlugin.class.getName())) {
      throw InputException.of("spark.plugins", "the session does not run " + VyrePlugin.class.getName()
          + ", so its executors have no vyre kernel", "start it with spark.plugins=" + VyrePlugin.class.getName()
          + " (docs/SPARK.md)");
    }
  }
}
