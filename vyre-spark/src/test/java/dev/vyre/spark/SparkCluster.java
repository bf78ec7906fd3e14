package dev.vyre.spark;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;

/**
 * The one Spark session this module's tests share: a {@code local-cluster} master with two workers of
 * one core each, so tasks run in two executor JVMs apart from the test's (the driver), each with its
 * own vyre kernel on the reference backend. Its workers launch executors from {@code
 * $SPARK_HOME/jars} (the POM points SPARK_HOME at target/spark-home), which is made here of links
 * to the test class path's jars; its directories (this build's classes) go on the executors' extra
 * class path, since a {@code jars/*} entry takes jar files only.
 */
final class SparkCluster {

  /** Bytes per split: small, so a file of a few KiB crosses many split boundaries. */
  static final long SPLIT_BYTES = 4096;

  private static SparkSession session;

  private SparkCluster() {}

  static synchronized SparkSession session() {
    if (session == null) {
      List<String> directories = prepareSparkHome();
      session = SparkSession.builder()
          .master("local-cluster[2,1,1024]")
          .appName("vyre-spark-test")
          .config("spark.plugins", VyrePlugin.class.getName())
          // C1 only and the serial collector: short-lived executors on a small machine start faster.
          .config("spark.executor.extraJavaOptions", "--enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
          .config("spark.executor.extraClassPath", String.join(File.pathSeparator, directories))
          .config(VyreScan.SPLIT_BYTES, Long.toString(SPLIT_BYTES))
          .config("spark.ui.enabled", "false")
          .config("spark.sql.shuffle.partitions", "2")
          .getOrCreate();
      // Spark SQL's first plan takes its time on the driver: taken while the executors' JVMs start.
      session.sql("SELECT 1").collectAsList();
      Runtime.getRuntime().addShutdownHook(new Thread(session::stop));
    }
    return session;
  }

  /** Links the class path's jars into $SPARK_HOME/jars; returns its directories. */
  private static List<String> prepareSparkHome() {
    String sparkHome = System.getenv("SPARK_HOME");
    if (sparkHome == null) {
      throw new IllegalStateException("SPARK_HOME is not set: run the tests through Maven (the POM sets it)");
    }
    Path jars = Path.of(sparkHome, "jars");
    List<String> directories = new ArrayList<>();
    try {
      Files.createDirectories(jars);
      // Links of an earlier build's class path would put two versions of a jar on the executors'.
      try (var stale = Files.list(jars)) {
        for (Path link : stale.toList()) {
          Files.delete(link);
        }
      }
      String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
      for (String entry : classPath.split(File.pathSeparator)) {
        Path path = Path.of(entry).toAbsolutePath();
        if (Files.isDirectory(path)) {
          directories.add(path.toString());
        } else if (entry.endsWith(".jar")) {
          Files.createSymbolicLink(jars.resolve(path.getFileName()), path);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return directories;
  }
}
