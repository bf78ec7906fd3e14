package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TelemetryCommandTest {

  @TempDir Path dir;
  private Path control;
  private Path ring;

  @BeforeEach
  void snapshots() throws IOException {
    byte[] controlBytes = ControlLayout.encode(false, 2, 0);
    MemorySegment words = MemorySegment.ofArray(controlBytes);
    Words.set(words, ControlLayout.DONE_COUNT, 5);
    Words.set(words, ControlLayout.metricWord(Opcodes.ATOMIC_ADD), 5);
    byte[] ringBytes = new byte[3 * SlotLayout.SLOT_BYTES];
    MemorySegment slots = MemorySegment.ofArray(ringBytes);
    for (int slot = 0; slot < 2; slot++) {
      Words.set(slots, SlotLayout.statusWord(slot), SlotLayout.STATUS_PUBLISHED);
      Words.set(slots, SlotLayout.slotBase(slot) + SlotLayout.OPCODE_WORD, 0xF101);
      Words.set(slots, SlotLayout.argWord(slot, 0), 7);
      Words.set(slots, SlotLayout.argWord(slot, 1), slot);
    }
    control = Files.write(dir.resolve("control.bin"), controlBytes);
    ring = Files.write(dir.resolve("ring.bin"), ringBytes);
  }

  @Test
  void decodePrintsASummary() {
    CliRun run = CliRun.of("telemetry", "decode", "--control", control.toString(), "--ring", ring.toString(), "--window-opcodes", "0xf101");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("metrics       ATOMIC_ADD=5"), run.out());
    assertTrue(run.out().contains("queue         depth=2 of 3 slots, idle 333333 ppm, frontier 6666 bps"), run.out());
    assertTrue(run.out().contains("active slots  2"), run.out());
    assertTrue(run.out().contains("window        ticket=7 opcode=0xf101 tenant=0 required=1 lookahead=1 published=2"), run.out());
  }

  @Test
  void decodeJsonIsTheConformShape() throws IOException {
    CliRun run = CliRun.of("telemetry", "decode", "--control", control.toString(), "--ring", ring.toString(), "--json",
        "--window-opcodes", "61697,NOP");
    assertEquals(0, run.status(), run.err());
    JsonNode json = Json.MAPPER.readTree(run.out());
    assertEquals(3, json.get("telemetry").get("slots").size());
    // The EMPTY slot has opcode 0 (NOP), so it forms a window too, as in vyre.
    assertEquals(2, json.get("telemetry").get("windows").size());
    assertEquals(2, json.get("runtime_counters").get("queue_depth").asInt());
    assertEquals(0, json.get("priority_accounting").get("requeue_count").asInt());
  }

  @Test
  void malformedSnapshotsAndOptionsAreReportedWithAFix() throws IOException {
    Path truncated = Files.write(dir.resolve("short.bin"), new byte[10]);
    CliRun run = CliRun.of("telemetry", "decode", "--control", truncated.toString(), "--ring", ring.toString());
    assertEquals(2, run.status());
    assertTrue(run.err().contains("control snapshot has 10 bytes") && run.err().contains("Fix: "), run.err());
    CliRun badOpcode = CliRun.of("telemetry", "decode", "--control", control.toString(), "--ring", ring.toString(), "--window-opcodes", "x");
    assertTrue(badOpcode.err().contains("--window-opcodes: \"x\" is not an opcode"), badOpcode.err());
    CliRun missing = CliRun.of("telemetry", "decode", "--control", dir.resolve("nope").toString(), "--ring", ring.toString());
    assertTrue(missing.err().contains("no such file"), missing.err());
  }
}
