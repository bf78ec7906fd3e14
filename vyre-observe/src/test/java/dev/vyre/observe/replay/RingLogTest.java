package dev.vyre.observe.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.BackendException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/PROTOCOL.md, "Replay log": vyre's four test vectors, its other replay tests, and what survives damage and crashes. */
class RingLogTest {

  @TempDir Path dir;

  private Path log() {
    return dir.resolve("log.vrrl");
  }

  /** vyre's test record: opcode 0x40000000 + slot, args slot * 1..4. */
  private static RecordedSlot rec(int slotIdx, int epoch) {
    return new RecordedSlot(1_000_000 + slotIdx, slotIdx, 0, 0x4000_0000 + slotIdx, slotIdx, slotIdx * 2, slotIdx * 3, slotIdx * 4,
        epoch);
  }

  private static List<Integer> slotIds(List<RecordedSlot> slots) {
    return slots.stream().map(RecordedSlot::slotIdx).toList();
  }

  private static void writeHeader(Path path, byte[] magic, int version, long capacity, long cursor, long fileLength) throws IOException {
    ByteBuffer header = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
    header.put(magic).putInt(version).putInt(0).putLong(capacity).putLong(cursor);
    try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
      file.setLength(fileLength);
      file.write(header.array());
    }
  }

  private static void overwrite(Path path, long position, byte[] bytes) throws IOException {
    try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
      file.seek(position);
      file.write(bytes);
    }
  }

  // ---------------------------------------------------------------- the [T] vectors

  @Test
  void appendAndReplayRoundTrip() {
    try (RingLog log = RingLog.open(log(), 4)) {
      log.append(rec(1, 10));
      log.append(rec(2, 11));
      log.sync();
      List<RecordedSlot> replay = log.replayAll();
      assertEquals(List.of(1, 2), slotIds(replay));
      assertEquals(List.of(10, 11), replay.stream().map(RecordedSlot::epoch).toList());
      assertEquals(rec(1, 10), replay.get(0), "every field comes back");
    }
  }

  @Test
  void reopenRestoresTheCursor() {
    try (RingLog log = RingLog.open(log(), 4)) {
      log.append(rec(1, 10));
      log.append(rec(2, 11));
      log.sync();
    }
    try (RingLog reopened = RingLog.open(log(), 4)) {
      assertEquals(2, reopened.cursor());
      assertEquals(List.of(1, 2), slotIds(reopened.replayAll()));
    }
  }

  @Test
  void rolloverKeepsTheMostRecentInPublishOrder() {
    try (RingLog log = RingLog.open(log(), 3)) {
      for (int i = 0; i < 5; i++) {
        log.append(rec(i, 100 + i));
      }
      // Physically [3, 4, 2]; the scan starts at the cursor (2).
      assertEquals(List.of(2, 3, 4), slotIds(log.replayAll()));
      assertEquals(2, log.cursor());
      assertEquals(List.of(2L, 0L, 1L), log.scan().indices(), "where each record is in the file");
    }
  }

  @Test
  void aZeroedRecordMidSequenceIsSkippedAndCounted() throws IOException {
    try (RingLog log = RingLog.open(log(), 4)) {
      log.append(rec(10, 100));
      log.append(rec(20, 200));
      log.append(rec(30, 300));
      log.sync();
      assertEquals(List.of(10, 20, 30), slotIds(log.replayAll()));
      overwrite(log(), ReplayLogFormat.recordOffset(1), new byte[ReplayLogFormat.RECORD_BYTES]);
      assertEquals(List.of(10, 30), slotIds(log.replayAll()));
      ReplayScan scan = log.scan();
      assertEquals(2, scan.emptyRecords(), "the never-written record 3 and the zeroed record 1");
      assertEquals(List.of(0L, 2L), scan.indices(), "a gap does not shift the records after it");
    }
  }

  @Test
  void aFileWithTheWrongMagicIsAHeaderMismatch() throws IOException {
    writeHeader(log(), "XXXX0001".getBytes(), 1, 4, 0, 32 + 4 * 64);
    ReplayLogException error = assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 4));
    assertEquals(ReplayLogException.Variant.HeaderMismatch, error.variant());
    assertEquals("replay log `" + log() + "` header mismatch: expected magic \"VRRL0001\", found magic \"XXXX0001\"."
        + " Fix: regenerate the log; VRRL format may have changed.", error.getMessage());
  }

  // ---------------------------------------------------------------- vyre's other replay tests

  @Test
  void openRejectsZeroCapacity() {
    ReplayLogException error = assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 0));
    assertEquals(ReplayLogException.Variant.ZeroCapacity, error.variant());
    assertEquals("replay log capacity must be > 0. Fix: construct with at least one slot.", error.getMessage());
    assertTrue(Files.notExists(log()), "nothing was created");
  }

  @Test
  void openRejectsACapacityAboveTheMaximum() {
    ReplayLogException error = assertThrows(ReplayLogException.class,
        () -> RingLog.open(log(), ReplayLogFormat.MAX_REPLAY_RECORDS + 1));
    assertEquals(ReplayLogException.Variant.CapacityOverflow, error.variant());
    assertEquals(1_048_577L, error.fields().get("count"));
    assertEquals(1_048_576L, error.fields().get("max"));
    assertEquals("replay log capacity 1048577 exceeds max 1048576. Fix: shard replay into smaller logs.", error.getMessage());
    assertEquals(ReplayLogException.Variant.CapacityOverflow, assertThrows(ReplayLogException.class, () -> RingLog.open(log(), -1L)).variant(),
        "a capacity is a u64");
  }

  @Test
  void anExistingLogWithZeroCapacityIsRejectedBeforeTheCursorModulo() throws IOException {
    writeHeader(log(), ReplayLogFormat.MAGIC, 1, 0, 0, 32);
    assertEquals(ReplayLogException.Variant.ZeroCapacity, assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 4)).variant());
  }

  @Test
  void anExistingLogWithAHugeCapacityIsRejectedBeforeAnyAllocation() throws IOException {
    writeHeader(log(), ReplayLogFormat.MAGIC, 1, ReplayLogFormat.MAX_REPLAY_RECORDS + 1, 0, 32);
    ReplayLogException error = assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 4));
    assertEquals(ReplayLogException.Variant.CapacityOverflow, error.variant());
    assertEquals(ReplayLogFormat.MAX_REPLAY_RECORDS + 1, error.fields().get("count"));
  }

  @Test
  void aWrongVersionIsAHeaderMismatch() throws IOException {
    writeHeader(log(), ReplayLogFormat.MAGIC, 2, 4, 0, 32 + 4 * 64);
    ReplayLogException error = assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 4));
    assertEquals(ReplayLogException.Variant.HeaderMismatch, error.variant());
    assertTrue(error.getMessage().contains("found magic \"VRRL0001\" version 2"), error.getMessage());
  }

  @Test
  void appendWithFailureRoundTripsTheEvidence() {
    BackendException backendError = BackendException.deviceOutOfMemory(1 << 20, 0);
    ReplayFailureEvidence failure = ReplayFailureEvidence.fromBackendError(3, backendError, "partial-output".getBytes());
    assertEquals(ReplayFailureClass.TransientQueue, failure.failureClass());
    assertEquals(1001, failure.backendErrorCode());
    assertTrue(failure.outputDigest() != 0);
    try (RingLog log = RingLog.open(log(), 4)) {
      log.appendWithFailure(rec(7, 44), failure);
      log.sync();
      List<ReplayRecord> replay = log.replayRecords();
      assertEquals(1, replay.size());
      assertEquals(7, replay.get(0).slot().slotIdx());
      assertEquals(44, replay.get(0).slot().epoch());
      assertEquals(failure, replay.get(0).failure());
    }
  }

  @Test
  void appendWithoutFailureHasNoEvidence() {
    try (RingLog log = RingLog.open(log(), 2)) {
      log.append(rec(1, 10));
      ReplayRecord record = log.replayRecords().get(0);
      assertEquals(1, record.slot().slotIdx());
      assertNull(record.failure());
    }
  }

  @Test
  void anExistingLogKeepsItsOwnCapacityAndTheCursorIsTakenModuloIt() throws IOException {
    writeHeader(log(), ReplayLogFormat.MAGIC, 1, 3, 7, 32 + 3 * 64);
    try (RingLog log = RingLog.open(log(), 100)) {
      assertEquals(3, log.capacity());
      assertEquals(1, log.cursor());
      assertEquals(32 + 3 * 64, Files.size(log()));
    }
  }

  @Test
  void aNewLogIsTheHeaderFollowedByCapacityZeroedRecords() throws IOException {
    try (RingLog log = RingLog.open(log(), 5)) {
      assertEquals(0, log.cursor());
      assertEquals(ReplayLogFormat.fileLength(5), Files.size(log()));
      ReplayScan scan = log.scan();
      assertTrue(scan.records().isEmpty());
      assertEquals(5, scan.emptyRecords());
    }
  }

  // ---------------------------------------------------------------- crashes and damage

  @Test
  void aSecondOpenSeesEveryAppendWithoutCloseOrSync() {
    // A process that dies after appending never closes its log; what it wrote is in the file.
    RingLog writer = RingLog.open(log(), 8);
    for (int i = 0; i < 5; i++) {
      writer.append(rec(i, i));
    }
    try (RingLog reader = RingLog.open(log(), 8)) {
      assertEquals(5, reader.cursor());
      assertEquals(List.of(0, 1, 2, 3, 4), slotIds(reader.replayAll()));
    }
    writer.close();
  }

  @Test
  void aCrashBetweenTheRecordAndTheCursorLosesNothing() throws IOException {
    try (RingLog log = RingLog.open(log(), 4)) {
      log.append(rec(1, 10));
      log.append(rec(2, 11));
    }
    // The third append's record reached the file, its cursor update did not.
    byte[] third = new byte[ReplayLogFormat.RECORD_BYTES];
    ReplayLogFormat.writeRecord(MemorySegment.ofArray(third), rec(3, 12), null);
    overwrite(log(), ReplayLogFormat.recordOffset(2), third);
    try (RingLog reopened = RingLog.open(log(), 4)) {
      assertEquals(2, reopened.cursor());
      assertEquals(List.of(3, 1, 2), slotIds(reopened.replayAll()), "the orphan reads back first, as the oldest");
    }
  }

  @Test
  void aTruncatedLogIsRefusedWithAFix() throws IOException {
    try (RingLog log = RingLog.open(log(), 4)) {
      log.append(rec(1, 10));
    }
    try (RandomAccessFile file = new RandomAccessFile(log().toFile(), "rw")) {
      file.setLength(32 + 2 * 64 + 10);
    }
    ReplayLogException error = assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 4));
    assertEquals(ReplayLogException.Variant.Truncated, error.variant());
    assertEquals(32L + 2 * 64 + 10, error.fields().get("byte_len"));
    assertEquals(32L + 4 * 64, error.fields().get("expected"));
    assertTrue(error.getMessage().contains("Fix: keep a copy for inspection and start a new log"), error.getMessage());
    assertEquals(ReplayLogException.Variant.Truncated, assertThrows(ReplayLogException.class, () -> RingLog.read(log())).variant());
  }

  @Test
  void aShortFileThatIsNotALogIsAHeaderMismatch() throws IOException {
    Files.write(log(), new byte[] {'h', 'i', 0});
    ReplayLogException error = assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 4));
    assertEquals(ReplayLogException.Variant.HeaderMismatch, error.variant());
    assertTrue(error.getMessage().contains("found magic \"hi\\x00\""), error.getMessage());
  }

  @Test
  void aFileShorterThanTheHeaderIsTruncatedNotReinitialised() throws IOException {
    Files.write(log(), new byte[] {'V', 'R', 'R', 'L'});
    ReplayLogException error = assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 4));
    assertEquals(ReplayLogException.Variant.Truncated, error.variant());
    assertEquals(4, Files.size(log()), "the file is left as it was");
  }

  @Test
  void anEmptyOrAllZeroFileBecomesANewLog() throws IOException {
    // What mktemp leaves, and what a process that died creating a log leaves (header written last).
    for (byte[] content : new byte[][] {new byte[0], new byte[32 + 4 * 64], new byte[100]}) {
      Files.write(log(), content);
      try (RingLog log = RingLog.open(log(), 3)) {
        assertEquals(3, log.capacity());
        log.append(rec(7, 1));
      }
      assertEquals(32L + 3 * 64, Files.size(log()));
      assertEquals(List.of(7), slotIds(RingLog.read(log()).records().stream().map(ReplayRecord::slot).toList()));
    }
    // A zeroed header in front of recorded bytes is damage, not a fresh file: refused, left as it was.
    byte[] damaged = new byte[32 + 2 * 64];
    damaged[32] = (byte) 0xEF;
    Files.write(log(), damaged);
    assertEquals(ReplayLogException.Variant.HeaderMismatch, assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 2)).variant());
    assertEquals(damaged.length, Files.size(log()));
  }

  @Test
  void anExtendedLogIsRefusedToo() throws IOException {
    try (RingLog log = RingLog.open(log(), 2)) {
      log.append(rec(1, 10));
    }
    try (RandomAccessFile file = new RandomAccessFile(log().toFile(), "rw")) {
      file.setLength(32 + 3 * 64);
    }
    assertEquals(ReplayLogException.Variant.Truncated, assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 2)).variant());
  }

  @Test
  void aDamagedRecordMagicIsAHeaderMismatchNamingTheRecord() throws IOException {
    try (RingLog log = RingLog.open(log(), 4)) {
      log.append(rec(1, 10));
      log.append(rec(2, 11));
      overwrite(log(), ReplayLogFormat.recordOffset(1), new byte[] {0x78, 0x56, 0x34, 0x12});
      ReplayLogException error = assertThrows(ReplayLogException.class, log::replayAll);
      assertEquals(ReplayLogException.Variant.HeaderMismatch, error.variant());
      assertTrue(error.getMessage().contains("record 1 (byte 96) has magic 0x12345678, neither 0xdeadbeef nor 0"), error.getMessage());
      assertTrue(error.getMessage().contains("Fix: "), error.getMessage());
    }
  }

  @Test
  void aFileShortenedWhileOpenIsTruncatedOnTheNextScan() throws IOException {
    try (RingLog log = RingLog.open(log(), 4)) {
      log.append(rec(1, 10));
      try (RandomAccessFile file = new RandomAccessFile(log().toFile(), "rw")) {
        file.setLength(32 + 64);
      }
      assertEquals(ReplayLogException.Variant.Truncated, assertThrows(ReplayLogException.class, log::scan).variant());
    }
  }

  @Test
  void readInspectsALogWithoutChangingIt() throws IOException {
    try (RingLog log = RingLog.open(log(), 3)) {
      log.append(rec(1, 10));
    }
    byte[] before = Files.readAllBytes(log());
    ReplayScan scan = RingLog.read(log());
    assertEquals(3, scan.capacity());
    assertEquals(1, scan.cursor());
    assertEquals(1, scan.records().size());
    assertEquals(2, scan.emptyRecords());
    assertArrayEquals(before, Files.readAllBytes(log()));
    ReplayLogException missing = assertThrows(ReplayLogException.class, () -> RingLog.read(dir.resolve("missing.vrrl")));
    assertEquals(ReplayLogException.Variant.Io, missing.variant());
    assertInstanceOf(NoSuchFileException.class, missing.getCause());
    assertTrue(missing.getMessage().endsWith("Fix: check disk space + permissions."), missing.getMessage());
    assertTrue(Files.notExists(dir.resolve("missing.vrrl")), "reading creates nothing");
  }

  @Test
  void racingAppendersEachLandOneRecord() throws InterruptedException {
    int threads = 4;
    int perThread = 250;
    try (RingLog log = RingLog.open(log(), threads * perThread)) {
      CountDownLatch start = new CountDownLatch(1);
      Thread[] appenders = new Thread[threads];
      for (int t = 0; t < threads; t++) {
        int thread = t;
        appenders[t] = Thread.ofPlatform().start(() -> {
          try {
            start.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
          for (int i = 0; i < perThread; i++) {
            log.append(rec(thread * perThread + i, thread));
          }
        });
      }
      start.countDown();
      for (Thread appender : appenders) {
        appender.join();
      }
      ReplayScan scan = log.scan();
      assertEquals(threads * perThread, scan.records().size());
      assertEquals(0, scan.emptyRecords());
      assertEquals(threads * perThread, scan.records().stream().map(r -> r.slot().slotIdx()).distinct().count());
    }
  }
}
