package dev.vyre.spark;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The example job: {@code ScanExample DIR PATTERN...} scans DIR for the patterns on a Spark session
 * with {@link VyrePlugin} and prints each file's match count and the first matches. The master is
 * {@code spark.master} if set (spark-submit sets it), else {@code local[2]}.
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
      VyreScan.count(spark, List.of(args[0]), patterns).orderBy("path").show(50, false);
      matches.orderBy("path", "offset", "pattern_id").show(20, false);
      System.out.println(matches.count() + " match(es)");
    } finally {
      spark.stop();
    }
  }
}
