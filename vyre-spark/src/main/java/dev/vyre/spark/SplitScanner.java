package dev.vyre.spark;

import dev.vyre.driver.error.InputException;
import dev.vyre.scan.FileResult;
import dev.vyre.scan.HitList;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanSink;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.TaskContext;

/** Scans a task's splits on its executor's kernel ({@link ExecutorKernel#current()}). */
final class SplitScanner {

  /** What a split holds: its match count and, when they were kept, its matches sorted by offset. */
  record Scanned(FileSplit split, long matches, HitList hits) {}

  private SplitScanner() {}

  /**
   * Scans {@code splits} in one job, in a lane of this executor's kernel.
   *
   * @throws InputException when a file could not be read whole: an executor that cannot read it
   *     would otherwise report fewer matches than the file holds
   */
  static List<Scanned> scan(List<FileSplit> splits, PatternSet patterns, boolean keepHits) throws InterruptedException {
    List<ScanFile> files = splits.stream().map(FileSplit::toScanFile).toList();
    List<Scanned> scanned = new ArrayList<>(splits.size());
    List<FileResult> failed = new ArrayList<>();
    TaskContext task = TaskContext.get();
    ScanSink sink = ScanSink.collecting(keepHits, result -> {
      if (result.failed()) {
        failed.add(result);
      }
      scanned.add(new Scanned(splits.get(result.inputId()), result.matches(), result.hits()));
    });
    ExecutorKernel.current().scan(files, patterns, keepHits, sink, () -> task != null && task.isInterrupted());
    if (!failed.isEmpty()) {
      FileResult first = failed.getFirst();
      throw InputException.of(first.file().path().toString(), first.error(), "make sure every executor can read the"
          + " files at the names the driver listed");
    }
    return scanned;
  }
}
