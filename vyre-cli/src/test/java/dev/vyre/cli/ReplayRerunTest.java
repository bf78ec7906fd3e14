package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.observe.replay.ReplayFailureClass;
import dev.vyre.observe.replay.ReplayLogFormat;
import dev.vyre.observe.replay.ReplayRecord;
import dev.vyre.observe.replay.RerunSidecar;
import dev.vyre.observe.replay.RerunSidecarFormat;
import dev.vyre.observe.replay.RingLog;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vyre replay FILE --rerun}: a run recorded on the reference backend, re-run and compared, and the logs it refuses. */
class ReplayRerunTest {

  /** The shipped example for re-runs: its tasks race without changing the result (hello.vslot's LOAD_U32 would not). */
  private static final String EXAMPLE = Path.of("..", "examples", "rerun.vslot").toString();

  @TempDir Path dir;

  /** Faults (a bad index, a tenant not authorized), a PRINTF, and a PACKED_SLOT whose args run past the four a record keeps. */
  private Path program() throws IOException {
    return Files.writeString(dir.resolve("prog.vslot"), """
        ATOMIC_ADD 5 161
        tenant=1 STORE_U32 1 100000                                     # FAULT: no control word 100000
        PRINTF 7 8 9
        PACKED_SLOT ATOMIC_ADD(2,162) ATOMIC_ADD(3,162) STORE_U32(4,163) # args in words 0..7
        priority=HIGH BATCH_FENCE 1 0x51
        tenant=3 NOP                                                    # FAULT: tenant 3 is not authorized
        """);
  }

  private Path record(String program, String... options) {
    Path log = dir.resolve("run.vrrl");
    String[] args = new String[options.length + 6];
    args[0] = "run";
    args[1] = "--backend";
    args[2] = "reference";
    args[3] = "--record";
    args[4] = log.toString();
    System.arraycopy(options, 0, args, 5, options.length);
    args[args.length - 1] = program;
    CliRun run = CliRun.of(args);
    assertTrue(run.status() == 0 || run.status() == 1, run.out() + run.err());
    return log;
  }

  /**
   * Rewrites the sidecar's final state, sealed with its checksums: a tampered sidecar that reads
   * back as written. {@code end} null: the header of a run that did not finish.
   */
  private static void tamperFinalState(Path sidecar, RerunSidecar.FinalState end) throws IOException {
    RerunSidecar.Header header = RerunSidecar.read(sidecar).header();
    byte[] bytes = Files.readAllBytes(sidecar);
    MemorySegment file = MemorySegment.ofArray(bytes);
    RerunSidecarFormat.writeHeader(file, header, end);
    if (end != null) {
      RerunSidecarFormat.writeObservables(file.asSlice(RerunSidecarFormat.observablesOffset(header.capacity())), end);
    }
    Files.write(sidecar, bytes);
  }

  /** Sets a u32 field of log record {@code index} and seals it again: a tampered record that reads back as written. */
  private static void tamper(Path log, long index, int fieldOffset, int u32) throws IOException {
    long offset = ReplayLogFormat.WRITTEN.recordOffset(index);
    ByteBuffer record = ByteBuffer.allocate(ReplayLogFormat.RECORD_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "rw")) {
      file.seek(offset);
      file.readFully(record.array());
      record.putInt(fieldOffset, u32);
      ReplayLogFormat.sealRecord(record, record.getLong(ReplayLogFormat.SEQUENCE_OFFSET), new CRC32C());
      file.seek(offset);
      file.write(record.array());
    }
  }

  @Test
  void theShippedExampleReRunsIdentically() {
    Path log = record(EXAMPLE);
    CliRun rerun = CliRun.of("replay", "--rerun", log.toString());
    assertEquals(0, rerun.status(), rerun.out() + rerun.err());
    assertTrue(rerun.out().contains("rerun        12 tasks on reference: 1024 slots, 2 tenants, 64 observables, timeout 30 s"), rerun.out());
    assertTrue(rerun.out().contains("compared     12 task ends; done_count, fault_count, epoch and 64 observable words"), rerun.out());
    assertTrue(rerun.out().endsWith("result       identical\n"), rerun.out());
  }

  @Test
  void aProgramWithFaultsPrintfAndAPackedSlotReRunsIdentically() throws IOException {
    Path log = record(program().toString(), "--slots", "64", "--observables", "8");
    CliRun rerun = CliRun.of("replay", "--rerun", "--backend", "reference", "--json", log.toString());
    assertEquals(0, rerun.status(), rerun.out() + rerun.err());
    JsonNode json = Json.MAPPER.readTree(rerun.out());
    assertTrue(json.get("identical").asBoolean());
    assertEquals(6, json.get("tasks").asInt());
    assertEquals(64, json.get("slots").asInt(), "the recorded settings");
    assertEquals(8, json.get("observables").asInt());
    assertEquals("reference", json.get("backend").asText());
    assertEquals(0, json.get("task_difference_count").asInt());
  }

  @Test
  void aTamperedFinalObservableAndTaskEndAreReportedAsDifferences() throws IOException {
    Path log = record(program().toString());
    Path sidecar = RerunSidecar.pathFor(log);
    // Observable 3 (word 163) ended 4: the recording now says 5.
    RerunSidecar.FinalState recorded = RerunSidecar.read(sidecar).finalState();
    int[] observables = recorded.observables();
    observables[3] = 5;
    tamperFinalState(sidecar, new RerunSidecar.FinalState(recorded.doneCount(), recorded.faultCount(), recorded.epoch(),
        observables));
    // The first task's record (ATOMIC_ADD, DONE) now carries FAULT evidence. Records come in the
    // order tasks ended, so the HIGH task may come first: the report names both.
    List<ReplayRecord> records = RingLog.read(log).records();
    int first = IntStream.range(0, records.size()).filter(i -> records.get(i).slot().opcode() == Opcodes.ATOMIC_ADD).findFirst()
        .orElseThrow();
    tamper(log, first, ReplayLogFormat.SLOT_STATUS_OFFSET, SlotLayout.STATUS_FAULT);

    CliRun text = CliRun.of("replay", "--rerun", log.toString());
    assertEquals(1, text.status(), text.out() + text.err());
    assertTrue(text.out().contains("result       2 differences: 1 in task ends, 1 in final words\n"), text.out());
    assertTrue(text.out().contains("  task 1 ATOMIC_ADD (record #" + first + "): expected FAULT, got DONE"), text.out());
    assertTrue(text.out().contains("  observable 3 (word 163): expected 5 (0x5), got 4 (0x4)"), text.out());

    CliRun json = CliRun.of("replay", "--rerun", "--json", log.toString());
    assertEquals(1, json.status(), json.err());
    JsonNode report = Json.MAPPER.readTree(json.out());
    assertFalse(report.get("identical").asBoolean());
    JsonNode task = report.get("task_differences").get(0);
    assertEquals(1, task.get("task").asInt());
    assertEquals(first, task.get("record").asInt());
    assertEquals("ATOMIC_ADD", task.get("opcode_name").asText());
    assertEquals("FAULT", task.get("expected").asText());
    assertEquals("DONE", task.get("got").asText());
    JsonNode word = report.get("word_differences").get(0);
    assertEquals(163, word.get("word").asInt());
    assertEquals(5, word.get("expected").asLong());
    assertEquals(4, word.get("got").asLong());
  }

  @Test
  void aTaskThatNeverEndedInTheRecordingIsListedNotCompared() throws IOException {
    Path log = record(program().toString());
    List<ReplayRecord> records = RingLog.read(log).records();
    int first = IntStream.range(0, records.size()).filter(i -> records.get(i).slot().opcode() == Opcodes.ATOMIC_ADD).findFirst()
        .orElseThrow();
    // Evidence with status 0, Unclassified: what vyre run records for a task it gave up on.
    tamper(log, first, ReplayLogFormat.FAILURE_CLASS_OFFSET, ReplayFailureClass.Unclassified.code());
    CliRun rerun = CliRun.of("replay", "--rerun", log.toString());
    assertEquals(0, rerun.status(), rerun.out() + rerun.err());
    assertTrue(rerun.out().contains("never ended  task 1 ATOMIC_ADD (record #" + first + ") had not ended when the recorded run"
        + " finished: not compared"), rerun.out());
    assertTrue(rerun.out().contains("compared     5 task ends;"), rerun.out());
  }

  @Test
  void aLogWithoutASidecarCannotBeReRun() throws IOException {
    Path log = record(program().toString());
    Files.delete(RerunSidecar.pathFor(log));
    CliRun rerun = CliRun.of("replay", "--rerun", log.toString());
    assertEquals(2, rerun.status(), rerun.out());
    assertTrue(rerun.err().contains("run.vrrl.rerun: no such file") && rerun.err().contains("logs recorded before vyre run wrote the"
        + " sidecar have none") && rerun.err().contains("Fix: record the program again"), rerun.err());
    assertEquals("", rerun.out());
  }

  @Test
  void aSidecarOfAnotherRunDoesNotMatch() throws IOException {
    // The sidecar of a second run of the same program: its entries have other timestamps.
    Path log = record(program().toString());
    Path second = dir.resolve("second.vrrl");
    CliRun.of("run", "--backend", "reference", "--record", second.toString(), program().toString());
    Files.copy(RerunSidecar.pathFor(second), RerunSidecar.pathFor(log), StandardCopyOption.REPLACE_EXISTING);
    CliRun secondRun = CliRun.of("replay", "--rerun", log.toString());
    assertEquals(2, secondRun.status(), secondRun.out());
    assertTrue(secondRun.err().contains("does not match its replay log: record #0 (index 0)")
        && secondRun.err().contains("is not the task of its entry")
        && secondRun.err().contains("Fix: record the program again into a new file"), secondRun.err());

    Path other = dir.resolve("other.vrrl");
    CliRun.of("run", "--backend", "reference", "--record", other.toString(), EXAMPLE);
    Files.copy(RerunSidecar.pathFor(other), RerunSidecar.pathFor(log), StandardCopyOption.REPLACE_EXISTING);
    CliRun copied = CliRun.of("replay", "--rerun", log.toString());
    assertEquals(2, copied.status(), copied.out());
    assertTrue(copied.err().contains("does not match its replay log: it describes a log of 12 records") && copied.err().contains("Fix: "),
        copied.err());
  }

  @Test
  void aWrappedLogIsAPartialRunAndCannotBeCompared() throws IOException {
    Path log = record(program().toString(), "--record-capacity", "4");
    CliRun rerun = CliRun.of("replay", "--rerun", log.toString());
    assertEquals(2, rerun.status(), rerun.out());
    assertTrue(rerun.err().contains("holds 4 records of the recorded run's 6 tasks") && rerun.err().contains("wrapped")
        && rerun.err().contains("Fix: record the program again with --record-capacity of at least 6"), rerun.err());
  }

  @Test
  void aLogWithATornLastRecordCannotBeCompared() throws IOException {
    Path log = record(program().toString());
    Files.write(log, Arrays.copyOf(Files.readAllBytes(log), (int) Files.size(log) - 1));
    CliRun rerun = CliRun.of("replay", "--rerun", log.toString());
    assertEquals(2, rerun.status(), rerun.out());
    assertTrue(rerun.err().contains("its last record, 5 at byte 432, is torn (cut short: 79 of its 80 bytes), so a task of the"
        + " run is missing") && rerun.err().contains("Fix: record the program again"), rerun.err());
  }

  /** A flipped bit in the sidecar's final state: one line naming the file, exit 2, no comparison against the wrong value. */
  @Test
  void aDamagedSidecarIsRefusedNamingIt() throws IOException {
    Path log = record(program().toString());
    Path sidecar = RerunSidecar.pathFor(log);
    long at = RerunSidecarFormat.observablesOffset(RerunSidecar.read(sidecar).header().capacity()) + 4 * 3;
    byte[] bytes = Files.readAllBytes(sidecar);
    bytes[(int) at] ^= 1;
    Files.write(sidecar, bytes);
    CliRun rerun = CliRun.of("replay", "--rerun", log.toString());
    assertEquals(2, rerun.status(), rerun.out());
    assertEquals("", rerun.out());
    assertEquals(1, rerun.err().lines().count(), rerun.err());
    assertTrue(rerun.err().contains(sidecar + ": the final state (byte " + (at - 4 * 3) + ") is damaged: checksum 0x")
        && rerun.err().contains("Fix: record the program again"), rerun.err());
  }

  @Test
  void aRunThatDidNotFinishCannotBeCompared() throws IOException {
    Path log = record(program().toString());
    tamperFinalState(RerunSidecar.pathFor(log), null);
    CliRun rerun = CliRun.of("replay", "--rerun", log.toString());
    assertEquals(2, rerun.status(), rerun.out());
    assertTrue(rerun.err().contains("the recorded run did not finish") && rerun.err().contains("Fix: "), rerun.err());
  }

  @Test
  void aBackendWithoutRerunIsAMistake() throws IOException {
    Path log = record(program().toString());
    CliRun run = CliRun.of("replay", "--backend", "reference", log.toString());
    assertEquals(2, run.status(), run.out());
    assertTrue(run.err().startsWith("vyre: --backend: ") && run.err().contains("Fix: add --rerun"), run.err());
  }
}
