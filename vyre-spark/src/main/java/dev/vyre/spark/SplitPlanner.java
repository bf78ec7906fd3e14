package dev.vyre.spark;

import dev.vyre.driver.error.InputException;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanTargets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How a scan is cut into Spark partitions: the files under the paths, found as {@code vyre scan}
 * finds them ({@link ScanTargets}), a file larger than {@code splitBytes} cut into ranges of that
 * many bytes, and consecutive pieces grouped into partitions of at most {@code splitBytes} (many
 * small files share a task, as Spark's file sources pack them).
 */
public final class SplitPlanner {

  private SplitPlanner() {}

  /**
   * The partitions of a scan of {@code paths}, each a list of splits in walk order.
   *
   * @throws InputException when a path cannot be found or listed: a scan that silently skipped it
   *     would answer for less than it was asked
   */
  public static List<List<FileSplit>> partitions(List<String> paths, long splitBytes) {
    if (splitBytes < 1) {
      throw InputException.of(VyreScan.SPLIT_BYTES, splitBytes + " bytes per split", "use at least 1 byte");
    }
    ScanTargets targets = ScanTargets.walk(paths.stream().map(Path::of).toList());
    if (!targets.problems().isEmpty()) {
      ScanTargets.Problem first = targets.problems().getFirst();
      throw InputException.of(first.path().toString(), first.reason() + (targets.problems().size() > 1
          ? " (and " + (targets.problems().size() - 1) + " more paths)" : ""),
          "pass paths that exist and that the driver and every executor can read");
    }
    List<List<FileSplit>> partitions = new ArrayList<>();
    List<FileSplit> partition = new ArrayList<>();
    long partitionBytes = 0;
    for (ScanFile file : targets.files()) {
      String name = file.path().toString();
      long from = 0;
      do {
        long to = Math.min(file.size(), from + splitBytes);
        if (!partition.isEmpty() && partitionBytes + (to - from) > splitBytes) {
          partitions.add(List.copyOf(partition));
          partition.clear();
          partitionBytes = 0;
        }
        partition.add(new FileSplit(name, file.size(), from, to));
        partitionBytes += to - from;
        from = to;
      } while (from < file.size());
    }
    if (!partition.isEmpty()) {
      partitions.add(List.copyOf(partition));
    }
    return partitions;
  }
}
