package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.observe.replay.ReplayFailureClass;
import dev.vyre.observe.replay.ReplayLogFormat;
import dev.vyre.observe.replay.ReplayRecord;
import dev.vyre.observe.replay.ReplayScan;
import dev.vyre.observe.replay.RingLog;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vyre run} on the reference backend, and what {@code --record} writes. */
class RunCommandTest {

  @TempDir Path dir;

  private Path program() throws IOException {
    return Files.writeString(dir.resolve("prog.vslot"), """
        ATOMIC_ADD 5 161                # observable 1 += 5
        BATCH_FENCE 1 0x51              # EPOCH += 1, observable 0 := 0x51
        tenant=1 STORE_U32 1 100000     # control word 100000 does not exist: FAULT
        tenant=1 ATOMIC_ADD 2 161 9 9 9 # a fifth arg is not recorded
        """);
  }

  @Test
  void runsAProgram() throws IOException {
    CliRun run = CliRun.of("run", "--backend", "reference", program().toString());
    assertEquals(1, run.status(), "one task faulted: " + run.out() + run.err());
    assertTrue(run.out().contains("done_count   3"), run.out());
    assertTrue(run.out().contains("task 3 STORE_U32: FAULT"), run.out());
  }

  @Test
  void morePrintfsThanTheLogHoldsPrintTheKeptOnesAndCountTheRest() throws IOException {
    StringBuilder program = new StringBuilder();
    for (int i = 0; i < 70; i++) {
      program.append("PRINTF ").append(i).append(" 0 0\n");
    }
    CliRun run = CliRun.of("run", "--backend", "reference", Files.writeString(dir.resolve("printfs.vslot"), program).toString());
    assertEquals(0, run.status(), run.out() + run.err());
    assertEquals(64, run.out().lines().filter(line -> line.startsWith("printf       fmt=")).count(), run.out());
    assertTrue(run.out().contains("printf       6 more not kept: the debug log holds the first 64 records of a run"), run.out());
  }

  @Test
  void aRecordCapacityOutsideTheFormatsRangeIsRefusedBeforeAnythingRuns() throws IOException {
    for (String capacity : new String[] {"0", "-1", "1048577"}) {
      Path log = dir.resolve("refused-" + capacity + ".vrrl");
      CliRun run = CliRun.of("run", "--backend", "reference", "--record", log.toString(), "--record-capacity", capacity,
          program().toString());
      assertEquals(2, run.status(), run.out() + run.err());
      assertTrue(run.err().contains("outside 1..1048576") && run.err().contains("Fix: "), run.err());
      assertTrue(Files.notExists(log));
    }
  }

  @Test
  void recordWritesEveryTaskWithFailureEvidenceForTheFault() throws IOException {
    Path log = dir.resolve("run.vrrl");
    CliRun run = CliRun.of("run", "--backend", "reference", "--record", log.toString(), program().toString());
    assertEquals(1, run.status(), run.err());
    assertTrue(run.out().contains("recorded     4 tasks in " + log), run.out());

    ReplayScan scan = RingLog.read(log);
    assertEquals(4, scan.capacity(), "one record per task");
    assertEquals(0, scan.cursor(), "full, so the cursor wrapped");
    assertEquals(4, scan.records().size());
    ReplayRecord add = scan.records().get(0);
    assertEquals(Opcodes.ATOMIC_ADD, add.slot().opcode());
    assertEquals(5, add.slot().arg0());
    assertEquals(ControlLayout.OBSERVABLE_BASE + 1, add.slot().arg1());
    assertNull(add.failure());
    assertTrue(add.slot().timestampNs() > 1_600_000_000L * 1_000_000_000L, "wall-clock nanoseconds");

    ReplayRecord fault = scan.records().get(2);
    assertEquals(1, fault.slot().tenantId());
    assertEquals(Opcodes.STORE_U32, fault.slot().opcode());
    assertEquals(SlotLayout.STATUS_FAULT, fault.failure().slotStatus());
    assertEquals(ReplayFailureClass.ProgramBug, fault.failure().failureClass());
    assertEquals(0, fault.failure().backendErrorCode());
    // BLAKE3 of the observables when the fault was seen: 0x51 and 5, plus the fourth task's 2 if it had run by then.
    byte[] observables = new byte[4 * 64];
    observables[0] = 0x51;
    observables[4] = 5;
    long beforeTheLastTask = ReplayLogFormat.outputDigest(observables);
    observables[4] = 7;
    long afterIt = ReplayLogFormat.outputDigest(observables);
    long digest = fault.failure().outputDigest();
    assertTrue(digest == beforeTheLastTask || digest == afterIt, Long.toHexString(digest));

    ReplayRecord last = scan.records().get(3);
    assertEquals(2, last.slot().arg0());
    assertEquals(9, last.slot().arg3());
    assertTrue(last.slot().epoch() == 0 || last.slot().epoch() == 1, "EPOCH when it was published");
  }

  @Test
  void aRecordedRunPrintsWithVyreReplay() throws IOException {
    Path log = dir.resolve("run.vrrl");
    CliRun.of("run", "--backend", "reference", "--record", log.toString(), program().toString());
    CliRun replay = CliRun.of("replay", "--json", log.toString());
    assertEquals(0, replay.status(), replay.err());
    JsonNode records = Json.MAPPER.readTree(replay.out()).get("records");
    assertEquals(4, records.size());
    assertEquals("BATCH_FENCE", records.get(1).get("opcode_name").asText());
    assertEquals("ProgramBug", records.get(2).get("failure").get("failure_class").asText());
  }

  /** Issue #25: recording into an existing log overwrote it silently; now it takes --force. */
  @Test
  void aSecondRecordedRunIntoTheSameLogIsRefusedUnlessForced() throws IOException {
    Path log = dir.resolve("run.vrrl");
    Path program = program();
    CliRun.of("run", "--backend", "reference", "--record", log.toString(), "--record-capacity", "6", program.toString());
    byte[] first = Files.readAllBytes(log);
    byte[] firstSidecar = Files.readAllBytes(Path.of(log + ".rerun"));
    CliRun refused = CliRun.of("run", "--backend", "reference", "--record", log.toString(), program.toString());
    assertEquals(2, refused.status(), refused.out() + refused.err());
    assertEquals("vyre: --record: " + log + " already exists (" + first.length + " bytes), and a recorded run never overwrites"
        + " a log. Fix: pass --force to replace it and " + log + ".rerun, or choose another file\n", refused.err());
    assertEquals("", refused.out(), "nothing ran");
    assertArrayEquals(first, Files.readAllBytes(log), "the log is left as it was");
    assertArrayEquals(firstSidecar, Files.readAllBytes(Path.of(log + ".rerun")));

    CliRun forced = CliRun.of("run", "--backend", "reference", "--record", log.toString(), "--force", program.toString());
    assertEquals(1, forced.status(), forced.err());
    ReplayScan scan = RingLog.read(log);
    assertEquals(4, scan.capacity(), "a new log, of the second run's size");
    assertEquals(4, scan.records().size());
    CliRun rerun = CliRun.of("replay", "--rerun", log.toString());
    assertEquals(0, rerun.status(), "the sidecar was replaced with the log: " + rerun.out() + rerun.err());
  }

  @Test
  void anEmptyFileAsMktempLeavesItIsRecordedInto() throws IOException {
    Path log = Files.createFile(dir.resolve("empty.vrrl"));
    CliRun run = CliRun.of("run", "--backend", "reference", "--record", log.toString(), program().toString());
    assertEquals(1, run.status(), run.err());
    assertEquals(4, RingLog.read(log).records().size());
  }

  @Test
  void forceWithoutARecordIsAMistake() throws IOException {
    CliRun run = CliRun.of("run", "--backend", "reference", "--force", program().toString());
    assertEquals(2, run.status(), run.out());
    assertEquals("vyre: --force: there is no log to replace without --record. Fix: add --record FILE, or drop it\n", run.err());
  }

  @Test
  void aLogThatCannotBeOpenedStopsTheRunBeforeItStarts() throws IOException {
    Path notALog = Files.writeString(dir.resolve("notes.txt"), "not a log");
    CliRun run = CliRun.of("run", "--backend", "reference", "--record", notALog.toString(), program().toString());
    assertEquals(2, run.status());
    assertTrue(run.err().contains("already exists") && run.err().contains("Fix: pass --force"), run.err());
    assertEquals("", run.out(), "nothing ran");
    assertEquals("not a log", Files.readString(notALog));
  }

  @Test
  void badNumbersAreRefusedWithAFixBeforeAnythingRuns() throws IOException {
    String program = program().toString();
    for (String[] option : new String[][] {{"--timeout", "0"}, {"--timeout", "-1"}, {"--timeout", "9223372036854775807"}}) {
      CliRun run = CliRun.of("run", "--backend", "reference", option[0], option[1], program);
      assertEquals(2, run.status(), List.of(option) + ": " + run.out() + run.err());
      assertTrue(run.err().startsWith("vyre: ") && run.err().contains(option[1]) && run.err().contains(". Fix: "), run.err());
      assertEquals(1, run.err().lines().count(), "no stack trace: " + run.err());
      assertEquals("", run.out(), "nothing ran");
    }
    CliRun slots = CliRun.of("run", "--backend", "reference", "--slots", "3000000", program);
    assertEquals("vyre: --slots: 3000000 slots is outside 1..1048576. Fix: pass a ring size between 1 and 1048576"
        + " (default 1024)", slots.err().strip());
    // Three slots split among five priority levels go to NORMAL; a HIGH task gets none: said in the CLI's words.
    Path high = Files.writeString(dir.resolve("high.vslot"), "priority=high ATOMIC_ADD 1 160\n");
    CliRun few = CliRun.of("run", "--backend", "reference", "--slots", "3", high.toString());
    assertEquals(2, few.status(), few.err());
    assertTrue(few.err().startsWith("vyre: --slots: 3 slots leave HIGH tasks no slot"), few.err());
    assertTrue(few.err().strip().endsWith("Fix: pass --slots 5 or more"), few.err());
  }

  /** A kernel shape the runtime refuses as an invalid argument is an error like any other: exit 2, one line, a Fix. */
  @Test
  void aKernelShapeOutOfRangeExitsTwoWithAFix() throws IOException {
    String program = program().toString();
    for (String[] option : new String[][] {{"--slots", "0"}, {"--tenants", "30"}, {"--observables", "-1"}}) {
      CliRun run = CliRun.of("run", "--backend", "reference", option[0], option[1], program);
      assertEquals(2, run.status(), List.of(option) + ": " + run.out() + run.err());
      assertTrue(run.err().startsWith("vyre: ") && run.err().contains(". Fix: "), run.err());
      assertEquals(1, run.err().lines().count(), "no stack trace: " + run.err());
      assertEquals("", run.out(), "nothing ran");
    }
  }

  @Test
  void aFileThatIsNotASlotProgramSaysWhatItIs() throws IOException {
    Path binary = Files.write(dir.resolve("blob.bin"), new byte[] {0, (byte) 0xFF, (byte) 0xFE, 'x'});
    CliRun run = CliRun.of("run", "--backend", "reference", binary.toString());
    assertEquals(2, run.status(), run.out());
    assertEquals("vyre: " + binary + ": not UTF-8 text. Fix: pass a slot program (text, one task per line, e.g."
        + " examples/hello.vslot)\n", run.err());
    CliRun directory = CliRun.of("run", "--backend", "reference", dir.toString());
    assertEquals(2, directory.status(), directory.out());
    assertEquals("vyre: " + dir + ": is a directory. Fix: pass a slot program (text, one task per line, e.g."
        + " examples/hello.vslot)\n", directory.err());
  }

  @Test
  void aRecordCapacityWithoutARecordIsAMistake() throws IOException {
    CliRun run = CliRun.of("run", "--backend", "reference", "--record-capacity", "5", program().toString());
    assertEquals(2, run.status(), run.out());
    assertTrue(run.err().startsWith("vyre: --record-capacity: ") && run.err().contains("Fix: "), run.err());
  }
}
