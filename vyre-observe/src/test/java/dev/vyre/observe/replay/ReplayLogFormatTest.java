package dev.vyre.observe.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.observe.replay.ReplayLogFormat.Version;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replay log's bytes (docs/PROTOCOL.md, "Replay log"), written out by hand and compared byte
 * for byte: VRRL0002 as written, with checksums worked out by a CRC32C apart from this code, and
 * vyre's VRRL0001, which is read.
 */
class ReplayLogFormatTest {

  @TempDir Path dir;

  private static final RecordedSlot SLOT = new RecordedSlot(0x0102_0304_0506_0708L, 5, 1, 0x4010_0007, 0x11, 0x22, 0x33, -1, 9);
  private static final ReplayFailureEvidence EVIDENCE = new ReplayFailureEvidence(7, ReplayFailureClass.ProgramBug, 1006,
      0x1122_3344_5566_7788L);

  /** vyre's 64 record bytes of SLOT with EVIDENCE: magic, timestamp, slot 5, tenant 1, opcode 0x40100007, args, epoch 9, evidence. */
  private static final String VYRE_RECORD = "efbeadde" + "0807060504030201" + "05000000" + "01000000" + "07001040"
      + "11000000" + "22000000" + "33000000" + "ffffffff" + "09000000"
      + "07000000" + "03000000" + "ee030000" + "8877665544332211";

  @Test
  void offsetsAreTheDocumentedOnes() {
    assertEquals(32, ReplayLogFormat.HEADER_BYTES);
    assertEquals(24, ReplayLogFormat.CURSOR_OFFSET);
    assertEquals(28, ReplayLogFormat.HEADER_CHECKSUM_OFFSET);
    assertEquals(64, Version.VRRL0001.recordBytes());
    assertEquals(80, Version.VRRL0002.recordBytes());
    assertEquals(64, ReplayLogFormat.SEQUENCE_OFFSET);
    assertEquals(76, ReplayLogFormat.RECORD_CHECKSUM_OFFSET);
    assertEquals(32 + 64 * 3, Version.VRRL0001.recordOffset(3));
    assertEquals(32 + 80 * 3, Version.VRRL0002.recordOffset(3));
    assertEquals(32 + 80L * 1_048_576, Version.VRRL0002.fileLength(ReplayLogFormat.MAX_REPLAY_RECORDS));
    assertEquals(Version.VRRL0002, ReplayLogFormat.WRITTEN);
    assertArrayEquals("VRRL0001".getBytes(StandardCharsets.US_ASCII), Version.VRRL0001.magic());
    assertEquals(0xDEADBEEF, ReplayLogFormat.RECORD_MAGIC);
  }

  @Test
  void aVrrl0002LogIsTheDocumentedBytes() throws IOException {
    Path path = dir.resolve("golden.vrrl");
    try (RingLog log = RingLog.create(path, 2)) {
      log.appendWithFailure(SLOT, EVIDENCE);
    }
    String expected = ""
        // header: magic, version 2, flags 0, capacity 2, reserved 0, CRC32C of the 28 bytes before it
        + "5652524c30303032" + "02000000" + "00000000" + "0200000000000000" + "00000000" + "b9e1e656"
        // record 0: vyre's 64 bytes, sequence 0, reserved 0, CRC32C of the 76 bytes before it
        + VYRE_RECORD + "0000000000000000" + "00000000" + "c28dd9dd";
    // Record 1 was never written: the file ends after record 0.
    assertEquals(expected, HexFormat.of().formatHex(Files.readAllBytes(path)));
  }

  @Test
  void sealingARecordLeavesItsBufferWhereItWas() {
    ByteBuffer record = ByteBuffer.allocateDirect(ReplayLogFormat.RECORD_BYTES).position(3).limit(50);
    ReplayLogFormat.writeRecord(MemorySegment.ofBuffer(record.duplicate().clear()), SLOT, null);
    ReplayLogFormat.sealRecord(record, 41, new CRC32C());
    assertEquals(3, record.position());
    assertEquals(50, record.limit());
    MemorySegment bytes = MemorySegment.ofBuffer(record.duplicate().clear());
    assertEquals(41, ReplayLogFormat.sequence(bytes));
    assertEquals(ReplayLogFormat.recordChecksum(record, 0, new CRC32C()), ReplayLogFormat.storedRecordChecksum(bytes));
  }

  /** A log vyre (or this code before VRRL0002) wrote, byte for byte, reads back. */
  @Test
  void aVrrl0001LogWrittenByTheOldLayoutReadsBack() throws IOException {
    String vyreLog = ""
        // header: magic, version 1, flags 0, capacity 2, cursor 1
        + "5652524c30303031" + "01000000" + "00000000" + "0200000000000000" + "0100000000000000"
        + VYRE_RECORD
        // record 1: never written
        + "00".repeat(64);
    Path path = Files.write(dir.resolve("vyre.vrrl"), HexFormat.of().parseHex(vyreLog));
    ReplayScan scan = RingLog.read(path);
    assertEquals(Version.VRRL0001, scan.version());
    assertEquals(2, scan.capacity());
    assertEquals(1, scan.cursor());
    assertEquals(1, scan.emptyRecords());
    assertEquals(1, scan.records().size());
    assertEquals(new ReplayRecord(SLOT, EVIDENCE), scan.records().getFirst());
    assertNull(scan.tornTail());
    assertTrue(scan.skipped().isEmpty());
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
