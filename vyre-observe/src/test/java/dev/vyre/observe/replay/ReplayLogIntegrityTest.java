package dev.vyre.observe.replay;

import static dev.vyre.observe.replay.ReplayLogFixtures.logOf;
import static dev.vyre.observe.replay.ReplayLogFixtures.overwrite;
import static dev.vyre.observe.replay.ReplayLogFixtures.rec;
import static dev.vyre.observe.replay.ReplayLogFixtures.setLength;
import static dev.vyre.observe.replay.ReplayLogFixtures.slotIds;
import static dev.vyre.observe.replay.ReplayLogFixtures.vrrl0001Record;
import static dev.vyre.observe.replay.ReplayLogFixtures.vrrl0002Record;
import static dev.vyre.observe.replay.ReplayLogFixtures.writeVrrl0001Header;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.observe.replay.ReplayLogFormat.Version;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the replay log's checksums and sequence numbers find (issue #25): a torn last record is
 * reported and the rest kept; a record damaged anywhere else is {@code Corrupt}, naming it, unless
 * salvaging; no damaged byte is ever read back as a value; a new log never replaces an old one.
 */
class ReplayLogIntegrityTest {

  private static final int RECORD = ReplayLogFormat.RECORD_BYTES;

  @TempDir Path dir;

  private Path log() {
    return dir.resolve("log.vrrl");
  }

  private static ReplayLogException corrupt(Path path) {
    ReplayLogException error = assertThrows(ReplayLogException.class, () -> RingLog.read(path));
    assertEquals(ReplayLogException.Variant.Corrupt, error.variant(), error.getMessage());
    assertEquals(1, error.getMessage().lines().count());
    assertTrue(error.getMessage().contains(". Fix: `vyre replay --salvage " + path + "` prints the intact records"),
        error.getMessage());
    return error;
  }

  private static void flip(Path path, long position) throws IOException {
    byte[] bytes = Files.readAllBytes(path);
    overwrite(path, position, new byte[] {(byte) ~bytes[(int) position]});
  }

  // ---------------------------------------------------------------- torn tails

  /** The trial: a log cut by one byte was refused whole; now its last record is torn and the rest kept. */
  @Test
  void aLogCutByOneByteKeepsEveryRecordButTheLast() throws IOException {
    logOf(log(), 5, 5);
    setLength(log(), Version.VRRL0002.fileLength(5) - 1);
    ReplayScan scan = RingLog.read(log());
    assertEquals(List.of(0, 1, 2, 3), slotIds(scan));
    assertEquals(new DamagedRecord(4, 32 + 4 * RECORD, "cut short: 79 of its 80 bytes"), scan.tornTail());
    assertEquals(4, scan.cursor(), "the next append would write the torn record again");
    assertEquals(0, scan.emptyRecords());
  }

  @Test
  void everyCutKeepsTheWholeRecordsBeforeIt() throws IOException {
    logOf(log(), 8, 5);
    byte[] whole = Files.readAllBytes(log());
    for (int length = ReplayLogFormat.HEADER_BYTES; length <= whole.length; length++) {
      Files.write(log(), Arrays.copyOf(whole, length));
      ReplayScan scan = RingLog.read(log());
      int records = (length - ReplayLogFormat.HEADER_BYTES) / RECORD;
      int torn = (length - ReplayLogFormat.HEADER_BYTES) % RECORD;
      assertEquals(List.of(0, 1, 2, 3, 4).subList(0, records), slotIds(scan), "cut at " + length);
      assertEquals(torn == 0 ? null : new DamagedRecord(records, 32L + records * RECORD, "cut short: " + torn + " of its 80 bytes"),
          scan.tornTail(), "cut at " + length);
      assertEquals(8 - records - (torn == 0 ? 0 : 1), scan.emptyRecords());
    }
  }

  /** After a wrap, the record being overwritten is the torn one: the old record there is lost, every other kept. */
  @Test
  void aTornOverwriteInAWrappedLogIsTheTornTail() throws IOException {
    logOf(log(), 3, 5);
    // The sixth append (record 2, over append 2) died after its first 40 bytes.
    overwrite(log(), Version.VRRL0002.recordOffset(2), Arrays.copyOf(vrrl0002Record(rec(5, 5), 5), 40));
    ReplayScan scan = RingLog.read(log());
    assertEquals(List.of(3, 4), slotIds(scan));
    assertEquals(2, scan.tornTail().index());
    assertTrue(scan.tornTail().problem().startsWith("checksum "), scan.tornTail().problem());
    try (RingLog reopened = RingLog.open(log(), 3)) {
      assertEquals(2, reopened.cursor());
      reopened.append(rec(5, 5));
      assertEquals(List.of(3, 4, 5), slotIds(reopened.replayAll()), "the next append writes the torn record whole");
    }
  }

  @Test
  void aWrappedLogCutShortKeepsItsRecordsOldestFirst() throws IOException {
    logOf(log(), 5, 8);
    // Records 0..4 hold appends 5, 6, 7, 3, 4; the cut leaves 0..3 and part of 4.
    setLength(log(), Version.VRRL0002.recordOffset(4) + 10);
    ReplayScan scan = RingLog.read(log());
    assertEquals(List.of(3, 5, 6, 7), slotIds(scan));
    assertEquals(List.of(3L, 0L, 1L, 2L), scan.indices());
    assertEquals(4, scan.tornTail().index());
  }

  @Test
  void appendingAfterATornTailWritesOverIt() throws IOException {
    logOf(log(), 4, 2);
    overwrite(log(), Version.VRRL0002.recordOffset(2), new byte[] {(byte) 0xEF, (byte) 0xBE});
    try (RingLog log = RingLog.open(log(), 4)) {
      log.append(rec(2, 2));
    }
    ReplayScan scan = RingLog.read(log());
    assertEquals(List.of(0, 1, 2), slotIds(scan));
    assertNull(scan.tornTail());
  }

  // ---------------------------------------------------------------- damage

  @Test
  void aFlippedByteInTheMiddleIsCorruptNamingTheRecord() throws IOException {
    logOf(log(), 5, 5);
    flip(log(), Version.VRRL0002.recordOffset(2) + ReplayLogFormat.ARGS_OFFSET);
    ReplayLogException error = corrupt(log());
    assertEquals(2L, error.fields().get("index"));
    assertEquals(192L, error.fields().get("offset"));
    assertTrue(error.getMessage().startsWith("replay log `" + log() + "` record 2 (byte 192) is damaged: checksum 0x"),
        error.getMessage());
    ReplayScan salvaged = RingLog.salvage(log());
    assertEquals(List.of(0, 1, 3, 4), slotIds(salvaged));
    assertEquals(List.of(2L), salvaged.skipped().stream().map(DamagedRecord::index).toList());
    assertNull(salvaged.tornTail());
  }

  /** Every single byte of a log flipped: refused or reported as the torn tail, never read back as a value. */
  @Test
  void noFlippedByteIsEverReadBackAsAValue() throws IOException {
    logOf(log(), 6, 5);
    byte[] whole = Files.readAllBytes(log());
    List<ReplayRecord> written = RingLog.read(log()).records();
    for (int at = 0; at < whole.length; at++) {
      Files.write(log(), whole);
      flip(log(), at);
      int record = (at - ReplayLogFormat.HEADER_BYTES) / RECORD;
      try {
        ReplayScan scan = RingLog.read(log());
        assertEquals(4, record, "only the newest record may read as torn; byte " + at);
        assertEquals(written.subList(0, 4), scan.records(), "byte " + at);
        assertNotNull(scan.tornTail(), "byte " + at);
      } catch (ReplayLogException refused) {
        assertTrue(at < ReplayLogFormat.HEADER_BYTES || record < 4, "byte " + at + ": " + refused.getMessage());
        assertTrue(refused.getMessage().contains("Fix: "), refused.getMessage());
      }
    }
  }

  @Test
  void aZeroedMagicIsCorruptNotARecordNeverWritten() throws IOException {
    logOf(log(), 5, 5);
    overwrite(log(), Version.VRRL0002.recordOffset(1), new byte[4]);
    ReplayLogException error = corrupt(log());
    assertEquals("magic 0x00000000, not 0xdeadbeef", error.fields().get("problem"));
    assertEquals(List.of(0, 2, 3, 4), slotIds(RingLog.salvage(log())));
  }

  /** VRRL0001 marks a record never written with magic 0: one before a written record was zeroed. */
  @Test
  void aZeroedVrrl0001RecordBeforeAWrittenOneIsCorrupt() throws IOException {
    writeVrrl0001Header(log(), Version.VRRL0001.magic(), 1, 4, 3, Version.VRRL0001.fileLength(4));
    for (int i : new int[] {0, 2}) {
      overwrite(log(), Version.VRRL0001.recordOffset(i), vrrl0001Record(rec(i, i)));
    }
    ReplayLogException error = corrupt(log());
    assertEquals(1L, error.fields().get("index"));
    assertEquals("magic 0, which marks a record never written, but records up to 2 were written", error.fields().get("problem"));
    ReplayScan salvaged = RingLog.salvage(log());
    assertEquals(List.of(0, 2), slotIds(salvaged));
    assertEquals(1, salvaged.emptyRecords(), "record 3, after the cursor, was never written");
  }

  @Test
  void aRecordOutOfPlaceOrFromAnEarlierLapIsCorrupt() throws IOException {
    logOf(log(), 3, 5);
    // Append 0 belongs at record 0, where append 3 now is: a valid record, but stale.
    overwrite(log(), Version.VRRL0002.recordOffset(0), vrrl0002Record(rec(0, 0), 0));
    assertTrue(((String) corrupt(log()).fields().get("problem")).contains("from an earlier lap"));
    overwrite(log(), Version.VRRL0002.recordOffset(0), vrrl0002Record(rec(0, 0), 4));
    assertEquals("sequence 4 belongs at record 1", corrupt(log()).fields().get("problem"));
  }

  @Test
  void bytesPastTheLastRecordAreCorrupt() throws IOException {
    logOf(log(), 2, 2);
    setLength(log(), Version.VRRL0002.fileLength(2) + 7);
    ReplayLogException error = corrupt(log());
    assertEquals(2L, error.fields().get("index"));
    assertEquals("7 bytes past the last record (a log of 2 records ends at byte 192)", error.fields().get("problem"));
    assertEquals(List.of(0, 1), slotIds(RingLog.salvage(log())));
  }

  @Test
  void aDamagedHeaderIsRefusedEvenWhenSalvaging() throws IOException {
    logOf(log(), 4, 2);
    flip(log(), ReplayLogFormat.CAPACITY_OFFSET);
    for (ReplayLogException error : List.of(assertThrows(ReplayLogException.class, () -> RingLog.read(log())),
        assertThrows(ReplayLogException.class, () -> RingLog.salvage(log())))) {
      assertEquals(ReplayLogException.Variant.Corrupt, error.variant());
      assertTrue(error.getMessage().startsWith("replay log `" + log() + "` header (bytes 0..32) is damaged: its checksum is 0x"),
          error.getMessage());
    }
  }

  // ---------------------------------------------------------------- overwriting

  @Test
  void aNewLogNeverReplacesAnOldOne() throws IOException {
    logOf(log(), 4, 2);
    byte[] before = Files.readAllBytes(log());
    ReplayLogException error = assertThrows(ReplayLogException.class, () -> RingLog.create(log(), 4));
    assertEquals(ReplayLogException.Variant.Exists, error.variant());
    assertEquals("replay log `" + log() + "` already exists (192 bytes), and a new log never replaces one. Fix: move or"
        + " delete the old file first, or choose another path.", error.getMessage());
    assertArrayEquals(before, Files.readAllBytes(log()), "left as it was");
    Files.write(log(), new byte[0]);
    try (RingLog log = RingLog.create(log(), 4)) {
      assertEquals(4, log.capacity(), "an empty file, as mktemp leaves it, holds no log to lose");
    }
  }
}
