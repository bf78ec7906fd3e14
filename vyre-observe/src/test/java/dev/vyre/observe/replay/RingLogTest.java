package dev.vyre.observe.replay;

import static dev.vyre.observe.replay.ReplayLogFixtures.logOf;
import static dev.vyre.observe.replay.ReplayLogFixtures.rec;
import static dev.vyre.observe.replay.ReplayLogFixtures.slotIds;
import static dev.vyre.observe.replay.ReplayLogFixtures.writeVrrl0001Header;
import static dev.vyre.observe.replay.ReplayLogFixtures.writeVrrl0002Header;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.BackendException;
import dev.vyre.observe.replay.ReplayLogFormat.Version;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/PROTOCOL.md, "Replay log": vyre's four test vectors, its other replay tests, and how a log is opened and read. */
class RingLogTest {

  @TempDir Path dir;

  private Path log() {
    return dir.resolve("log.vrrl");
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
  void rolloverKeepsTheMostRecentInPublishOrder() throws IOException {
    try (RingLog log = RingLog.open(log(), 3)) {
      for (int i = 0; i < 5; i++) {
        log.append(rec(i, 100 + i));
      }
      // Physically [3, 4, 2]; the oldest is at the cursor (2).
      assertEquals(List.of(2, 3, 4), slotIds(log.replayAll()));
      assertEquals(2, log.cursor());
      assertEquals(List.of(2L, 0L, 1L), log.scan().indices(), "where each record is in the file");
    }
    assertEquals(Version.VRRL0002.fileLength(3), Files.size(log()), "a full log stops growing");
  }

  @Test
  void aFileWithTheWrongMagicIsAHeaderMismatch() throws IOException {
    writeVrrl0001Header(log(), "XXXX0001".getBytes(StandardCharsets.US_ASCII), 1, 4, 0, 32 + 4 * 64);
    ReplayLogException error = assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 4));
    assertEquals(ReplayLogException.Variant.HeaderMismatch, error.variant());
    assertEquals("replay log `" + log() + "` header mismatch: expected magic \"VRRL0002\" (or vyre's \"VRRL0001\"), found magic"
        + " \"XXXX0001\". Fix: regenerate the log; VRRL format may have changed.", error.getMessage());
  }

  // ---------------------------------------------------------------- vyre's other replay tests

  @Test
  void openAndCreateRejectZeroCapacity() {
    for (ReplayLogException error : List.of(assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 0)),
        assertThrows(ReplayLogException.class, () -> RingLog.create(log(), 0)))) {
      assertEquals(ReplayLogException.Variant.ZeroCapacity, error.variant());
      assertEquals("replay log capacity must be > 0. Fix: construct with at least one slot.", error.getMessage());
    }
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
    writeVrrl0001Header(log(), Version.VRRL0001.magic(), 1, 0, 0, 32);
    assertEquals(ReplayLogException.Variant.ZeroCapacity, assertThrows(ReplayLogException.class, () -> RingLog.read(log())).variant());
    writeVrrl0002Header(log(), 0);
    assertEquals(ReplayLogException.Variant.ZeroCapacity, assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 4)).variant());
  }

  @Test
  void anExistingLogWithAHugeCapacityIsRejectedBeforeAnyAllocation() throws IOException {
    writeVrrl0002Header(log(), ReplayLogFormat.MAX_REPLAY_RECORDS + 1);
    ReplayLogException error = assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 4));
    assertEquals(ReplayLogException.Variant.CapacityOverflow, error.variant());
    assertEquals(ReplayLogFormat.MAX_REPLAY_RECORDS + 1, error.fields().get("count"));
  }

  @Test
  void aWrongVersionIsAHeaderMismatch() throws IOException {
    writeVrrl0001Header(log(), Version.VRRL0001.magic(), 2, 4, 0, 32 + 4 * 64);
    ReplayLogException error = assertThrows(ReplayLogException.class, () -> RingLog.read(log()));
    assertEquals(ReplayLogException.Variant.HeaderMismatch, error.variant());
    assertTrue(error.getMessage().contains("expected magic \"VRRL0001\" and version 1, found magic \"VRRL0001\" version 2"),
        error.getMessage());
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

  // ---------------------------------------------------------------- opening

  @Test
  void anExistingLogKeepsItsOwnCapacityAndGoesOnAfterItsNewestRecord() {
    logOf(log(), 3, 7);
    try (RingLog log = RingLog.open(log(), 100)) {
      assertEquals(3, log.capacity());
      assertEquals(1, log.cursor(), "seven appends: the next goes to record 7 % 3");
      log.append(rec(7, 7));
      assertEquals(List.of(5, 6, 7), slotIds(log.replayAll()));
    }
  }

  @Test
  void aNewLogIsItsHeaderAlone() throws IOException {
    try (RingLog log = RingLog.create(log(), 5)) {
      assertEquals(0, log.cursor());
      assertEquals(ReplayLogFormat.HEADER_BYTES, Files.size(log()), "records are added as they are appended");
      ReplayScan scan = log.scan();
      assertTrue(scan.records().isEmpty());
      assertEquals(5, scan.emptyRecords());
      assertEquals(Version.VRRL0002, scan.version());
    }
  }

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
  void aVrrl0001LogIsReadButNotAppendedTo() throws IOException {
    writeVrrl0001Header(log(), Version.VRRL0001.magic(), 1, 2, 0, 32 + 2 * 64);
    byte[] before = Files.readAllBytes(log());
    ReplayLogException error = assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 2));
    assertEquals(ReplayLogException.Variant.HeaderMismatch, error.variant());
    assertTrue(error.getMessage().contains("found vyre's VRRL0001, which is read but not appended to"), error.getMessage());
    assertArrayEquals(before, Files.readAllBytes(log()));
    assertEquals(2, RingLog.read(log()).emptyRecords());
  }

  /** vyre writes a VRRL0001 log at its full length up front: any other length is damage. */
  @Test
  void aVrrl0001LogOfAnotherLengthIsTruncated() throws IOException {
    for (long length : new long[] {32 + 64 + 10, 32 + 3 * 64}) {
      writeVrrl0001Header(log(), Version.VRRL0001.magic(), 1, 2, 0, length);
      ReplayLogException error = assertThrows(ReplayLogException.class, () -> RingLog.read(log()));
      assertEquals(ReplayLogException.Variant.Truncated, error.variant());
      assertEquals(length, error.fields().get("byte_len"));
      assertEquals(32L + 2 * 64, error.fields().get("expected"));
      assertTrue(error.getMessage().endsWith("Fix: keep a copy for inspection and start a new log."), error.getMessage());
    }
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
    assertEquals("replay log `" + log() + "` is 4 bytes, less than its 32-byte header, so it holds no record: the process"
        + " writing it died as it created the file, or the file was cut short. Fix: record the run again.", error.getMessage());
    assertEquals(4, Files.size(log()), "the file is left as it was");
  }

  @Test
  void anEmptyFileBecomesANewLogAndOneOfZerosIsNotALog() throws IOException {
    // What mktemp leaves: no log to lose.
    Files.write(log(), new byte[0]);
    try (RingLog log = RingLog.open(log(), 3)) {
      log.append(rec(7, 1));
    }
    assertEquals(List.of(7), slotIds(RingLog.read(log())));
    Files.write(log(), new byte[0]);
    try (RingLog log = RingLog.create(log(), 3)) {
      assertEquals(3, log.capacity());
    }
    Files.write(log(), new byte[100]);
    assertEquals(ReplayLogException.Variant.HeaderMismatch, assertThrows(ReplayLogException.class, () -> RingLog.open(log(), 2)).variant());
    assertEquals(100, Files.size(log()), "left as it was");
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
  void appendingAllocatesNothing() {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    RecordedSlot slot = rec(3, 4);
    ReplayFailureEvidence failure = new ReplayFailureEvidence(7, ReplayFailureClass.ProgramBug, 0, 1);
    int appends = 4096;
    try (RingLog log = RingLog.create(log(), 1024)) {
      long bytes = 0;
      for (int round = 0; round < 3; round++) {
        // The first rounds let the JIT compile the path (and the log wrap); the last one is measured.
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < appends; i++) {
          log.append(slot);
          log.appendWithFailure(slot, failure);
        }
        bytes = threads.getCurrentThreadAllocatedBytes() - before;
      }
      assertTrue(bytes < appends / 8, bytes + " bytes allocated over " + 2 * appends + " appends");
    }
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
