package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.observe.replay.RecordedSlot;
import dev.vyre.observe.replay.ReplayFailureClass;
import dev.vyre.observe.replay.ReplayFailureEvidence;
import dev.vyre.observe.replay.RingLog;
import dev.vyre.runtime.wire.Opcodes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vyre replay FILE}: a log printed as text and as JSON, and the errors an operator can meet. */
class ReplayCommandTest {

  @TempDir Path dir;

  private Path writeLog() {
    Path path = dir.resolve("run.vrrl");
    try (RingLog log = RingLog.open(path, 4)) {
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

  @Test
  void aDamagedLogIsRefusedNotHalfPrinted() throws IOException {
    Path path = writeLog();
    byte[] bytes = Files.readAllBytes(path);
    Files.write(path, Arrays.copyOf(bytes, bytes.length - 1));
    CliRun run = CliRun.of("replay", path.toString());
    assertEquals(2, run.status());
    assertTrue(run.err().contains("is 287 bytes but needs 288") && run.err().contains("Fix: "), run.err());
    assertEquals("", run.out());
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
