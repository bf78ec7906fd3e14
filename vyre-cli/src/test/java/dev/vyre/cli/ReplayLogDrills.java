package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.observe.replay.RecordedSlot;
import dev.vyre.observe.replay.ReplayRecord;
import dev.vyre.observe.replay.ReplayScan;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What the replay log drills share: the program they record, the child JVM that records it, and what a log of it must hold. */
final class ReplayLogDrills {

  private ReplayLogDrills() {}

  /** A program of {@code tasks} ATOMIC_ADDs to observable 0, task {@code i} adding {@code i + 1}: a record names its task. */
  static Path program(Path dir, int tasks) throws IOException {
    StringBuilder program = new StringBuilder();
    for (int i = 1; i <= tasks; i++) {
      program.append("ATOMIC_ADD ").append(i).append(' ').append(ControlLayout.OBSERVABLE_BASE).append('\n');
    }
    return Files.writeString(dir.resolve("drill.vslot"), program);
  }

  /**
   * The command line of a child JVM running {@code vyre} with {@code args}, on this test's class
   * path; tuned to start fast (C1 only, serial GC), which is what the drills wait on most.
   */
  static List<String> vyre(String... args) {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "--enable-native-access=ALL-UNNAMED", "-cp",
        System.getProperty("java.class.path"), VyreCommand.class.getName()));
    command.addAll(List.of(args));
    return command;
  }

  /**
   * Checks that {@code scan} holds tasks of {@link #program} one after another in program order,
   * each intact, from the first task unless the log wrapped; returns how many. Tasks of one
   * priority level are recorded in program order.
   */
  static int checkRecordsAreConsecutiveTasks(ReplayScan scan, String context) {
    List<ReplayRecord> records = scan.records();
    boolean wrapped = records.size() + (scan.tornTail() != null ? 1 : 0) == scan.capacity();
    for (int i = 0; i < records.size(); i++) {
      RecordedSlot slot = records.get(i).slot();
      int task = i == 0 ? (wrapped ? slot.arg0() : 1) : records.get(i - 1).slot().arg0() + 1;
      assertEquals(Opcodes.ATOMIC_ADD, slot.opcode(), context + ": record #" + i);
      assertEquals(task, slot.arg0(), context + ": record #" + i + " is not task " + task);
      assertEquals(ControlLayout.OBSERVABLE_BASE, slot.arg1(), context + ": record #" + i);
      assertNull(records.get(i).failure(), context + ": record #" + i + " has failure evidence");
    }
    return records.size();
  }

  /** {@code vyre replay LOG} in this JVM: exit 0, and on stderr a warning naming the torn record's byte when there is one. */
  static void checkReplayPrints(Path log, ReplayScan scan, String context) {
    CliRun replay = CliRun.of("replay", log.toString());
    assertEquals(0, replay.status(), context + ": " + replay.err());
    if (scan.tornTail() == null) {
      assertEquals("", replay.err(), context);
    } else {
      assertEquals(1, replay.err().lines().count(), context + ": " + replay.err());
      assertTrue(replay.err().startsWith("vyre: warning: " + log + ": the last record, " + scan.tornTail().index() + " at byte "
          + scan.tornTail().offset() + ", is torn") && replay.err().contains("kept the " + scan.records().size() + " intact records"),
          context + ": " + replay.err());
    }
  }
}
