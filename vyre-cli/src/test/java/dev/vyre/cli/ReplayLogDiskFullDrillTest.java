package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.observe.replay.ReplayScan;
import dev.vyre.observe.replay.RingLog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drill (issue #25): {@code vyre run --record} in a child JVM onto a disk that fills up while it
 * records, a small tmpfs mounted in a mount namespace of its own ({@code unshare -rm}, which needs
 * user namespaces; skipped without them; RingLogDiskFullTest runs the same drill on the log alone
 * anywhere). A file size limit ({@code ulimit -f}) would not do: the rerun sidecar, created at its
 * full length before the run starts, is always larger than the log. The run must end with one line
 * naming the file and the disk, exit 2, and the log must read back with the records written before.
 */
class ReplayLogDiskFullDrillTest {

  private static final int TASKS = 2_000;
  /** Room for the log and its sidecar to start and then run out: a few pages each. */
  private static final String DISK_SIZE = "64k";

  @TempDir Path dir;

  @Test
  void aDiskThatFillsUpEndsTheRunWithOneLineAndTheLogReadsBack() throws Exception {
    Path mount = Files.createDirectory(dir.resolve("disk"));
    Assumptions.assumeTrue(canMountATmpfs(mount), "needs `unshare -rm` and a tmpfs mount in it (user namespaces)");
    Path program = ReplayLogDrills.program(dir, TASKS);
    Path kept = Files.createDirectory(dir.resolve("kept"));
    // Run on the small disk, then copy the log out before the namespace, and its mount, go away.
    List<String> command = new ArrayList<>(List.of("unshare", "-rm", "bash", "-c",
        "mount -t tmpfs -o size=" + DISK_SIZE + " tmpfs \"$1\" || exit 99; log=\"$1/run.vrrl\"; shift; kept=\"$1\"; shift;"
            + " \"$@\" --record \"$log\" \"$program\"; status=$?; cp \"$log\" \"$kept/\"; exit $status",
        "bash", mount.toString(), kept.toString()));
    command.addAll(ReplayLogDrills.vyre("run", "--backend", "reference"));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("program", program.toString());
    Process child = builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    String err = new String(child.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    int status = child.waitFor();

    assertEquals(2, status, err);
    assertEquals(1, err.lines().count(), "one line, no stack: " + err);
    assertTrue(err.startsWith("vyre: replay log ") && err.contains("/run.vrrl") && err.contains("No space left on device")
        && err.contains(". Fix: "), err);
    Path log = kept.resolve("run.vrrl");
    ReplayScan scan = RingLog.read(log);
    int records = ReplayLogDrills.checkRecordsAreConsecutiveTasks(scan, "the full disk's log");
    assertTrue(records > 0 && records < TASKS, records + " records: the disk must fill up while the run records");
    ReplayLogDrills.checkReplayPrints(log, scan, "the full disk's log");
    System.out.printf("ReplayLogDiskFullDrillTest: the disk filled after %d records (%s); vyre said: %s%n", records,
        scan.tornTail() == null ? "no torn record" : "torn record at byte " + scan.tornTail().offset(), err.strip());
  }

  private static boolean canMountATmpfs(Path mount) {
    try {
      Process probe = new ProcessBuilder("unshare", "-rm", "mount", "-t", "tmpfs", "-o", "size=" + DISK_SIZE, "tmpfs",
          mount.toString()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return probe.waitFor() == 0;
    } catch (Exception unavailable) {
      return false;
    }
  }
}
