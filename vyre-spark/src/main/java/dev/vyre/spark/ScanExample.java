package dev.vyre.spark;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The example job: {@code ScanExample DIR PATTERN...} scans DIR for the patterns on a Spark session
 * with {@link VyrePlugin} and prints each file's match count and the first matches. The master is
 * {@code spark.master} if set (spark-submit sets it), else {@code local[2]}. Each of its three
 * actions scans the input again; it prints how long each took.
 */
public final class ScanExample {

  private ScanExample() {}

  public static void main(String[] args) {
    if (args.length < 2) {
      System.err.println("usage: ScanExample DIR PATTERN...");
      System.exit(2);
    }
    List<String> patterns = Arrays.asList(args).subList(1, args.length);
    SparkSession spark = SparkSession.builder()
        .appName("vyre-scan-example")
        .master(System.getProperty("spark.master", "local[2]"))
        .config("spark.plugins", VyrePlugin.class.getName())
        .getOrCreate();
    try {
      Dataset<Row> matches = VyreScan.scan(spark, List.of(args[0]), patterns);
      long start = System.nanoTime();
      VyreScan.count(spark, List.of(args[0]), patterns).orderBy("path").show(50, false);
      long counted = System.nanoTime();
      matches.orderBy("path", "offset", "pattern_id").show(20, false);
      long shown = System.nanoTime();
      long total = matches.count();
      long end = System.nanoTime();
      System.out.println(total + " match(es)");
      // Each action scans the whole input again; the last one's time is the job's scan alone.
      System.out.printf("vyre-scan-example: counts %d ms, first matches %d ms, all matches %d ms%n",
          (counted - start) / 1_000_000, (shown - counted) / 1_000_000, (end - shown) / 1_000_000);
    } finally {
      spark.stop();
    }
  }
}
