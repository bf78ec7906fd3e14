package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.vyre.observe.replay.DamagedRecord;
import dev.vyre.observe.replay.ReplayLogException;
import dev.vyre.observe.replay.ReplayLogFormat;
import dev.vyre.observe.replay.ReplayRecord;
import dev.vyre.observe.replay.ReplayScan;
import dev.vyre.observe.replay.RingLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drill (issue #25): {@code vyre run --record} in a child JVM, killed with SIGKILL at a random
 * point of its recording, trial after trial. The point is a random number of appends, up to three
 * times the log's {@link #CAPACITY} (fewer records than the program's tasks), so a kill lands
 * before the first record, while the log grows, or while it overwrites its oldest records; the
 * child dies a moment after the drill sees that append, as the run goes on appending. Every log
 * must read back holding tasks one after another in program order, intact; a torn last record
 * must be reported by {@code vyre replay}, which still exits 0. A kill tears a record only if it
 * lands inside the one write of a record, which the kernel does not interrupt, so each trial also
 * cuts its log at a random byte, as a kill inside a torn write would leave it, and checks that
 * every whole record before the cut reads back.
 *
 * <p>{@code -Dvyre.drill.killTrials=N} runs N trials (default {@link #DEFAULT_TRIALS});
 * {@code -Dvyre.drill.seed=S} repeats a failed drill, whose message gives its seed.
 */
class ReplayLogKillDrillTest {

  static final int DEFAULT_TRIALS = 10;
  private static final int CAPACITY = 2_048;
  /** Kills come after this many appends at most. */
  private static final int MOST_APPENDS = 3 * CAPACITY;
  /** More tasks than {@link #MOST_APPENDS}: the run is still recording when it is killed. */
  private static final int TASKS = 20_000;
  /** The most a child may take to start and write its header, however loaded the machine. */
  private static final long START_TIMEOUT_MS = 60_000;
  /** SIGKILL's exit status. */
  private static final int KILLED = 128 + 9;

  @TempDir Path dir;

  @Test
  void aKilledRecordingAlwaysReadsBackWithItsIntactRecords() throws Exception {
    int trials = Integer.getInteger("vyre.drill.killTrials", DEFAULT_TRIALS);
    long seed = Long.getLong("vyre.drill.seed", System.nanoTime());
    Path program = ReplayLogDrills.program(dir, TASKS);
    long started = System.nanoTime();
    int wrapped = 0;
    int tornByKill = 0;
    // The next child starts while this trial's log is checked: starting a JVM is most of a trial.
    Process next = start(dir.resolve("trial-0.vrrl"), program);
    try {
      for (int trial = 0; trial < trials; trial++) {
        Random random = new Random(seed + trial);
        int appends = random.nextInt(MOST_APPENDS + 1);
        String context = "trial " + trial + " of seed " + seed + " (-Dvyre.drill.seed=" + seed + "), killed after " + appends
            + " appends";
        Path log = dir.resolve("trial-" + trial + ".vrrl");
        int status = killAfter(next, log, appends, context);
        next = trial + 1 < trials ? start(dir.resolve("trial-" + (trial + 1) + ".vrrl"), program) : null;
        assertEquals(KILLED, status, context + ": the run ended first: " + Files.readString(stderr(log)));
        ReplayScan scan = read(log, context);
        ReplayLogDrills.checkRecordsAreConsecutiveTasks(scan, context);
        wrapped += scan.records().size() + (scan.tornTail() != null ? 1 : 0) == CAPACITY ? 1 : 0;
        if (scan.tornTail() != null) {
          tornByKill++;
          assertEquals(scan.cursor(), scan.tornTail().index(), context + ": only the record being written may be torn");
          ReplayLogDrills.checkReplayPrints(log, scan, context);
        }
        cutAtARandomByte(log, scan, random, context);
      }
    } finally {
      if (next != null) {
        next.destroyForcibly();
      }
    }
    System.out.printf("ReplayLogKillDrillTest: %d trials (seed %d) in %.1f s, each killed before its run ended: %d after the"
        + " log wrapped, %d torn by the kill%n", trials, seed, (System.nanoTime() - started) / 1e9, wrapped, tornByKill);
  }

  private static Process start(Path log, Path program) throws IOException {
    return new ProcessBuilder(ReplayLogDrills.vyre("run", "--backend", "reference", "--record", log.toString(),
        "--record-capacity", String.valueOf(CAPACITY), program.toString())).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(stderr(log).toFile()).start();
  }

  private static Path stderr(Path log) {
    return log.resolveSibling(log.getFileName() + ".stderr");
  }

  /** Kills the child once its log has had {@code appends} appends (0: its header); returns its exit status. */
  private static int killAfter(Process child, Path log, int appends, String context) throws IOException, InterruptedException {
    try {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS);
      while (child.isAlive() && !hasAppended(log, appends)) {
        if (System.nanoTime() > deadline) {
          fail(context + ": the child did not get there in " + START_TIMEOUT_MS + " ms");
        }
        Thread.sleep(1);
      }
      child.destroyForcibly();
      assertTrue(child.waitFor(START_TIMEOUT_MS, TimeUnit.MILLISECONDS), context + ": the child outlived SIGKILL");
      return child.exitValue();
    } finally {
      child.destroyForcibly();
    }
  }

  /** Whether the log has had {@code appends} appends: by its length while it grows, then by the sequence number in the place of the last. */
  private static boolean hasAppended(Path log, int appends) throws IOException {
    long size = sizeOf(log);
    if (appends <= CAPACITY) {
      return size >= ReplayLogFormat.WRITTEN.recordOffset(appends);
    }
    if (size < ReplayLogFormat.WRITTEN.fileLength(CAPACITY)) {
      return false;
    }
    ByteBuffer record = ByteBuffer.allocate(ReplayLogFormat.RECORD_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    try (FileChannel file = FileChannel.open(log, StandardOpenOption.READ)) {
      file.read(record, ReplayLogFormat.WRITTEN.recordOffset((appends - 1) % CAPACITY));
    }
    return record.getLong(ReplayLogFormat.SEQUENCE_OFFSET) >= appends - 1;
  }

  /** The file's size, 0 while there is none: vyre run checks it can create the log by creating and deleting it first. */
  private static long sizeOf(Path log) throws IOException {
    try {
      return Files.size(log);
    } catch (NoSuchFileException notYet) {
      return 0;
    }
  }

  private static ReplayScan read(Path log, String context) throws IOException {
    try {
      return RingLog.read(log);
    } catch (ReplayLogException e) {
      throw new AssertionError(context + ": the log (" + Files.size(log) + " bytes) does not read back: " + e.getMessage(), e);
    }
  }

  /**
   * The log cut at a random byte after its header: the records wholly before the cut read back, in
   * the same order, and a part of one left at the end is the torn tail.
   */
  private static void cutAtARandomByte(Path log, ReplayScan killed, Random random, String context) throws IOException {
    byte[] bytes = Files.readAllBytes(log);
    int length = ReplayLogFormat.HEADER_BYTES + random.nextInt(bytes.length - ReplayLogFormat.HEADER_BYTES + 1);
    Path cut = Files.write(log.resolveSibling(log.getFileName() + ".cut"), Arrays.copyOf(bytes, length));
    String cutContext = context + ", then cut to " + length + " bytes";
    ReplayScan scan = read(cut, cutContext);
    int whole = (length - ReplayLogFormat.HEADER_BYTES) / ReplayLogFormat.RECORD_BYTES;
    int part = (length - ReplayLogFormat.HEADER_BYTES) % ReplayLogFormat.RECORD_BYTES;
    List<ReplayRecord> before = IntStream.range(0, killed.records().size()).filter(i -> killed.indices().get(i) < whole)
        .mapToObj(killed.records()::get).toList();
    assertEquals(before, scan.records(), cutContext);
    if (part != 0) {
      assertEquals(new DamagedRecord(whole, ReplayLogFormat.WRITTEN.recordOffset(whole), "cut short: " + part + " of its "
          + ReplayLogFormat.RECORD_BYTES + " bytes"), scan.tornTail(), cutContext);
    }
    ReplayLogDrills.checkReplayPrints(cut, scan, cutContext);
  }
}
