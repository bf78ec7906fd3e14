package dev.vyre.spark;

import dev.vyre.scan.HitList;
import dev.vyre.scan.PatternSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The SQL functions of vyre-spark, for a table that already has a column of file names: {@code
 * vyre_count(path, patterns)} is a file's match count and {@code vyre_matches(path, patterns)} its
 * matches as an array of (offset, pattern_id, pattern), each scanning the whole file on the
 * executor's kernel ({@code SELECT path, vyre_count(path, array('ERROR', 'FATAL')) FROM logs}). A
 * large file is one row's work here; {@link VyreScan#scan} splits it across tasks.
 */
final class ScanFunctions {

  static final StructType MATCH = new StructType()
      .add("offset", DataTypes.LongType, false)
      .add("pattern_id", DataTypes.IntegerType, false)
      .add("pattern", DataTypes.StringType, false);

  private ScanFunctions() {}

  static void register(SparkSession spark) {
    spark.udf().register("vyre_count", (UDF2<String, scala.collection.Seq<String>, Long>)
        (path, patterns) -> scanWhole(path, CollectionConverters.asJava(patterns), false).matches(), DataTypes.LongType);
    spark.udf().register("vyre_matches", (UDF2<String, scala.collection.Seq<String>, List<Row>>) (path, patterns) -> {
      List<String> given = CollectionConverters.asJava(patterns);
      HitList hits = scanWhole(path, given, true).hits();
      List<Row> rows = new ArrayList<>(hits.size());
      for (int i = 0; i < hits.size(); i++) {
        rows.add(RowFactory.create(hits.start(i), hits.patternId(i), given.get(hits.patternId(i))));
      }
      return rows;
    }, DataTypes.createArrayType(MATCH, false));
  }

  private static SplitScanner.Scanned scanWhole(String path, List<String> patterns, boolean keepHits) throws Exception {
    PatternSet set = VyreScan.patternSet(patterns);
    long size = Files.size(Path.of(path));
    return SplitScanner.scan(List.of(new FileSplit(path, size, 0, size)), set, keepHits).getFirst();
  }
}
