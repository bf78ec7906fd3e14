package dev.vyre.observe.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The VRRL0001 bytes (docs/PROTOCOL.md, "Replay log"), written out by hand and compared byte for byte. */
class ReplayLogFormatTest {

  @TempDir Path dir;

  private static final RecordedSlot SLOT = new RecordedSlot(0x0102_0304_0506_0708L, 5, 1, 0x4010_0007, 0x11, 0x22, 0x33, -1, 9);

  @Test
  void offsetsAreVyres() {
    assertEquals(32, ReplayLogFormat.HEADER_BYTES);
    assertEquals(64, ReplayLogFormat.RECORD_BYTES);
    assertEquals(24, ReplayLogFormat.CURSOR_OFFSET);
    assertEquals(32, ReplayLogFormat.recordOffset(0));
    assertEquals(32 + 64 * 3, ReplayLogFormat.recordOffset(3));
    assertEquals(32 + 64L * 1_048_576, ReplayLogFormat.fileLength(ReplayLogFormat.MAX_REPLAY_RECORDS));
    assertEquals(0xDEADBEEF, ReplayLogFormat.RECORD_MAGIC);
  }

  @Test
  void aLogFileIsByteIdenticalToVyres() throws IOException {
    Path path = dir.resolve("golden.vrrl");
    try (RingLog log = RingLog.open(path, 2)) {
      log.appendWithFailure(SLOT, new ReplayFailureEvidence(7, ReplayFailureClass.ProgramBug, 1006, 0x1122_3344_5566_7788L));
    }
    String expected = ""
        // header: magic, version 1, flags 0, capacity 2, cursor 1
        + "5652524c30303031" + "01000000" + "00000000" + "0200000000000000" + "0100000000000000"
        // record 0: magic, timestamp, slot 5, tenant 1, opcode 0x40100007, args, epoch 9
        + "efbeadde" + "0807060504030201" + "05000000" + "01000000" + "07001040"
        + "11000000" + "22000000" + "33000000" + "ffffffff" + "09000000"
        // failure evidence: status 7, ProgramBug 3, code 1006, digest
        + "07000000" + "03000000" + "ee030000" + "8877665544332211"
        // record 1: never written
        + "00".repeat(64);
    assertEquals(expected, HexFormat.of().formatHex(Files.readAllBytes(path)));
  }

  @Test
  void aRecordWithoutEvidenceHasAZeroTail() {
    byte[] bytes = new byte[64];
    ReplayLogFormat.writeRecord(MemorySegment.ofArray(bytes), SLOT, null);
    assertArrayEquals(new byte[20], Arrays.copyOfRange(bytes, 44, 64));
    ReplayRecord record = ReplayLogFormat.readRecord(MemorySegment.ofArray(bytes));
    assertEquals(SLOT, record.slot());
    assertNull(record.failure());
  }

  @Test
  void anyNonZeroTailFieldIsEvidence() {
    for (int offset : new int[] {44, 48, 52, 56}) {
      byte[] bytes = new byte[64];
      ReplayLogFormat.writeRecord(MemorySegment.ofArray(bytes), SLOT, null);
      bytes[offset] = 9;
      ReplayRecord record = ReplayLogFormat.readRecord(MemorySegment.ofArray(bytes));
      assertTrue(record.hasFailure(), "offset " + offset);
    }
    byte[] bytes = new byte[64];
    ReplayLogFormat.writeRecord(MemorySegment.ofArray(bytes), SLOT, null);
    bytes[48] = 9;
    assertEquals(ReplayFailureClass.Unclassified, ReplayLogFormat.readRecord(MemorySegment.ofArray(bytes)).failure().failureClass(),
        "an unknown class code reads as Unclassified");
  }

  @Test
  void outputDigestIsTheFirstEightBytesOfBlake3LittleEndian() {
    // BLAKE3("") = af1349b9f5f9a1a6...
    assertEquals(0xa6a1f9f5b94913afL, ReplayLogFormat.outputDigest(new byte[0]));
  }
}
