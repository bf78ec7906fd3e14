package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.observe.replay.RecordedSlot;
import dev.vyre.observe.replay.ReplayFailureClass;
import dev.vyre.observe.replay.ReplayFailureEvidence;
import dev.vyre.observe.replay.ReplayLogFormat;
import dev.vyre.observe.replay.RingLog;
import dev.vyre.runtime.wire.Opcodes;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vyre replay FILE}: a log printed as text and as JSON, what it says of a torn or damaged
 * log (issue #25), and the errors an operator can meet.
 */
class ReplayCommandTest {

  @TempDir Path dir;

  private Path writeLog() {
    Path path = dir.resolve("run.vrrl");
    try (RingLog log = RingLog.create(path, 4)) {
      log.append(new RecordedSlot(1_700_000_000_000_000_001L, 3, 0, Opcodes.ATOMIC_ADD, 5, 160, 0, 0, 0));
      log.appendWithFailure(new RecordedSlot(1_700_000_000_000_000_002L, 4, 1, 0x4010_0007, -1, 0, 0, 0, 2),
          new ReplayFailureEvidence(7, ReplayFailureClass.ProgramBug, 0, 0xF000_0000_0000_0001L));
    }
    return path;
  }

  @Test
  void printsTheRecordsOldestFirst() {
    Path path = writeLog();
    CliRun run = CliRun.of("replay", path.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals("", run.err());
    assertTrue(run.out().startsWith("log          " + path + " (VRRL0002)\n"), run.out());
    assertTrue(run.out().contains("capacity     4 records, cursor 2"), run.out());
    assertTrue(run.out().contains("records      2 written, 2 never written"), run.out());
    String[] lines = run.out().split("\n");
    String first = lines[4];
    String second = lines[5];
    assertTrue(first.contains("1700000000000000001") && first.contains("ATOMIC_ADD") && first.contains("[5, 160, 0, 0]")
        && first.endsWith("-"), first);
    assertTrue(second.contains("0x40100007") && second.contains("[4294967295, 0, 0, 0]"), second);
    assertTrue(second.endsWith("status=FAULT class=ProgramBug backend_code=0 digest=0xf000000000000001"), second);
  }

  @Test
  void printsJson() throws IOException {
    Path path = writeLog();
    CliRun run = CliRun.of("replay", "--json", path.toString());
    assertEquals(0, run.status(), run.err());
    JsonNode json = Json.MAPPER.readTree(run.out());
    assertEquals("VRRL0002", json.get("format").asText());
    assertTrue(json.get("torn_tail").isNull());
    assertEquals(0, json.get("skipped").size());
    assertEquals(4, json.get("capacity").asInt());
    assertEquals(2, json.get("cursor").asInt());
    assertEquals(2, json.get("empty_records").asInt());
    JsonNode first = json.get("records").get(0);
    assertEquals("1700000000000000001", first.get("timestamp_ns").asText());
    assertEquals("ATOMIC_ADD", first.get("opcode_name").asText());
    assertTrue(first.get("failure").isNull());
    JsonNode failure = json.get("records").get(1).get("failure");
    assertEquals(7, failure.get("slot_status").asInt());
    assertEquals("FAULT", failure.get("slot_status_name").asText());
    assertEquals("ProgramBug", failure.get("failure_class").asText());
    assertEquals("17293822569102704641", failure.get("output_digest").bigIntegerValue().toString(), "a u64, unsigned");
    assertEquals(4294967295L, json.get("records").get(1).get("args").get(0).asLong());
  }

  @Test
  void aMissingFileIsAnInputErrorWithAFix() {
    CliRun run = CliRun.of("replay", dir.resolve("none.vrrl").toString());
    assertEquals(2, run.status());
    assertTrue(run.err().contains("no such file. Fix: "), run.err());
  }

  @Test
  void aFileThatIsNotALogSaysSo() throws IOException {
    Path path = Files.writeString(dir.resolve("notes.txt"), "these are not the records you are looking for");
    CliRun run = CliRun.of("replay", path.toString());
    assertEquals(2, run.status());
    assertTrue(run.err().contains("header mismatch") && run.err().contains("Fix: regenerate the log"), run.err());
    assertEquals("these are not the records you are looking for", Files.readString(path), "reading changes nothing");
  }

  /** The trial: a log cut by one byte was refused whole. */
  @Test
  void aLogCutByOneByteWarnsOfTheTornRecordAndPrintsTheRest() throws IOException {
    Path path = writeLog();
    byte[] bytes = Files.readAllBytes(path);
    Files.write(path, Arrays.copyOf(bytes, bytes.length - 1));
    CliRun run = CliRun.of("replay", path.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals("vyre: warning: " + path + ": the last record, 1 at byte 112, is torn (cut short: 79 of its 80 bytes), as a"
        + " run killed while writing it leaves; kept the 1 intact records\n", run.err());
    assertTrue(run.out().contains("records      1 written, 2 never written, 1 torn"), run.out());
    assertTrue(run.out().contains("ATOMIC_ADD") && !run.out().contains("0x40100007"), run.out());
    JsonNode torn = Json.MAPPER.readTree(CliRun.of("replay", "--json", path.toString()).out()).get("torn_tail");
    assertEquals(112, torn.get("offset").asLong());
  }

  /** The trial: a flipped byte printed a wrong value and exit 0. */
  @Test
  void aFlippedByteInTheMiddleIsOneLineAndExitTwo() throws IOException {
    Path path = writeLog();
    byte[] bytes = Files.readAllBytes(path);
    bytes[32 + 24] ^= 0x01;
    Files.write(path, bytes);
    CliRun run = CliRun.of("replay", path.toString());
    assertEquals(2, run.status());
    assertEquals("", run.out(), "nothing half printed");
    assertEquals(1, run.err().lines().count(), run.err());
    assertTrue(run.err().startsWith("vyre: replay log `" + path + "` record 0 (byte 32) is damaged: checksum 0x"), run.err());
    assertTrue(run.err().strip().endsWith(". Fix: `vyre replay --salvage " + path + "` prints the intact records and names each"
        + " damaged one (RingLog.salvage); record the run again for a whole log."), run.err());
  }

  /** The trial: a zeroed magic dropped the record silently. */
  @Test
  void aZeroedMagicIsDamageNotARecordNeverWritten() throws IOException {
    Path path = writeLog();
    byte[] bytes = Files.readAllBytes(path);
    Arrays.fill(bytes, 32, 36, (byte) 0);
    Files.write(path, bytes);
    CliRun run = CliRun.of("replay", path.toString());
    assertEquals(2, run.status());
    assertTrue(run.err().contains("record 0 (byte 32) is damaged: magic 0x00000000, not 0xdeadbeef"), run.err());

    CliRun salvaged = CliRun.of("replay", "--salvage", path.toString());
    assertEquals(0, salvaged.status(), salvaged.err());
    assertEquals("vyre: warning: " + path + ": skipped damaged record 0 at byte 32: magic 0x00000000, not 0xdeadbeef\n",
        salvaged.err());
    assertTrue(salvaged.out().contains("records      1 written, 2 never written, 1 damaged"), salvaged.out());
    assertTrue(salvaged.out().contains("0x40100007") && !salvaged.out().contains("ATOMIC_ADD"), salvaged.out());
    JsonNode skipped = Json.MAPPER.readTree(CliRun.of("replay", "--json", "--salvage", path.toString()).out()).get("skipped");
    assertEquals(1, skipped.size());
    assertEquals(0, skipped.get(0).get("index").asInt());
  }

  @Test
  void salvageCannotFeedARerun() {
    CliRun run = CliRun.of("replay", "--salvage", "--rerun", writeLog().toString());
    assertEquals(2, run.status());
    assertTrue(run.err().startsWith("vyre: --salvage: leaves damaged records out, and a re-run needs every record of the run."
        + " Fix: "), run.err());
  }

  /** A log vyre wrote, or this code before VRRL0002, still prints. */
  @Test
  void aVrrl0001LogPrints() throws IOException {
    ByteBuffer file = ByteBuffer.allocate(32 + 2 * 64).order(ByteOrder.LITTLE_ENDIAN);
    file.put(ReplayLogFormat.Version.VRRL0001.magic()).putInt(1).putInt(0).putLong(2).putLong(1);
    ReplayLogFormat.writeRecord(MemorySegment.ofArray(file.array()).asSlice(32, 64),
        new RecordedSlot(7, 3, 0, Opcodes.ATOMIC_ADD, 5, 160, 0, 0, 0), null);
    Path path = Files.write(dir.resolve("vyre.vrrl"), file.array());
    CliRun run = CliRun.of("replay", path.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().startsWith("log          " + path + " (VRRL0001)\n"), run.out());
    assertTrue(run.out().contains("records      1 written, 1 never written\n") && run.out().contains("[5, 160, 0, 0]"), run.out());
  }

  @Test
  void aDirectoryOrADeviceIsNamedForWhatItIs() {
    CliRun directory = CliRun.of("replay", dir.toString());
    assertEquals(2, directory.status());
    assertEquals("vyre: " + dir + ": is a directory. Fix: pass the path of a replay log, e.g. one written by vyre run"
        + " --record\n", directory.err());
    CliRun device = CliRun.of("replay", "--json", "/dev/null");
    assertEquals(2, device.status());
    assertEquals("vyre: /dev/null: not a regular file. Fix: pass the path of a replay log, e.g. one written by vyre run"
        + " --record\n", device.err());
    assertEquals("", directory.out() + device.out());
  }
}
