package dev.vyre.spark;

import dev.vyre.scan.HitList;
import dev.vyre.scan.PatternSet;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * The Spark task of {@link VyreScan}: scans one partition's splits on the executor's kernel and
 * returns a row per match (path, offset, pattern_id, pattern), or per split (path, matches) when it
 * only counts. A partition's matches are held packed, 8 bytes each, and turned into rows as Spark
 * takes them.
 */
record PartitionScan(List<String> patterns, boolean keepHits) implements FlatMapFunction<List<FileSplit>, Row> {

  @Override
  public Iterator<Row> call(List<FileSplit> splits) throws InterruptedException {
    PatternSet set = VyreScan.patternSet(patterns);
    List<SplitScanner.Scanned> scanned = SplitScanner.scan(splits, set, keepHits);
    if (!keepHits) {
      return scanned.stream().map(s -> RowFactory.create(s.split().path(), s.matches())).iterator();
    }
    return scanned.stream().flatMap(s -> {
      HitList hits = s.hits();
      return IntStream.range(0, hits.size()).mapToObj(i -> RowFactory.create(s.split().path(),
          hits.start(i), hits.patternId(i), patterns.get(hits.patternId(i))));
    }).iterator();
  }
}
