package dev.vyre.scan;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.spi.ResourcePlacement;
import java.time.Duration;
import java.util.ArrayDeque;

/**
 * One kernel of a {@link ScanJob} (one device): the DFA table and hit resources on it, the thread
 * that copies and publishes its chunks ({@link LanePublisher}), and the chunks it scans. A job of
 * several lanes shares one reader, one set of files and one {@link InOrderDelivery} between them;
 * each {@link ChunkSlot} belongs to one lane, and a chunk goes to whichever slot is free next, so a
 * device that finishes sooner gets more chunks. Used by the job's thread, but for {@link #publish},
 * which its publisher calls.
 */
final class ScanLane {

  final Megakernel kernel;
  final KernelResourcePool pool;
  final int dfaHandle;
  final HitResources hits;
  /** Chunks published, oldest first (tickets retire in order). */
  final ArrayDeque<ChunkSlot> scanning = new ArrayDeque<>();
  /** Set once by the job, after its slots exist. */
  LanePublisher publisher;
  /**
   * A counting job's counters, one per segment of each of the lane's slots, segment-major (counter
   * {@code segment * columns + column} is slot column {@code column}'s), so that the first segments
   * of all the lane's slots lie side by side and one read takes every chunk that finished; null
   * when the job keeps hits.
   */
  final MatchCounters counters;
  /** The lane's slots: each has a column of the counters. */
  final int columns;
  private final TaskBatch batch;
  private long faultsSeen;

  /**
   * Uploads {@code table} to the pool's kernel (DEVICE) and takes the host copies of its hit
   * resources; a counting job's lane takes its counters for {@code columns} slots of at most {@code
   * tasksPerChunk} segments.
   */
  ScanLane(KernelResourcePool pool, DfaTable table, int tasksPerChunk, boolean counting, int columns) {
    this.kernel = pool.kernel();
    this.pool = pool;
    this.dfaHandle = pool.take(table.byteSize(), ResourcePlacement.DEVICE);
    kernel.writeResource(dfaHandle, 0, table.segment());
    this.hits = new HitResources(pool);
    this.batch = new TaskBatch(tasksPerChunk).priority(Priority.NORMAL);
    this.faultsSeen = kernel.stats().faults();
    this.columns = columns;
    this.counters = counting ? new MatchCounters(pool, tasksPerChunk * columns) : null;
    if (counters != null) {
      counters.reset();
    }
  }

  /**
   * Copies back, in one read, the counters of the first {@code count} of {@code finished}, chunks
   * whose tasks finished; each then takes its counts ({@link ChunkSlot#segmentCount}). Nothing to
   * read when the job keeps hits.
   */
  void readCounts(ChunkSlot[] finished, int count) {
    if (counters == null) {
      return;
    }
    int rows = 0;
    for (int i = 0; i < count; i++) {
      rows = Math.max(rows, finished[i].segments());
    }
    if (rows > 0) {
      counters.read(0, rows * columns - 1);
    }
  }

  /** Whether no lane has a chunk being copied, published or scanned. */
  static boolean allIdle(ScanLane[] lanes) {
    for (ScanLane lane : lanes) {
      if (lane.publisher.held() > 0 || !lane.scanning.isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /** A lane whose kernel is not running, or null. */
  static ScanLane stopped(ScanLane[] lanes) {
    for (ScanLane lane : lanes) {
      if (!lane.kernel.isKernelRunning()) {
        return lane;
      }
    }
    return null;
  }

  /**
   * Publishes one DFA_STEP per task of the chunk's segments, in one batch ({@link
   * ChunkSlot#addTasks}), and notes its last ticket; false when there was nothing to scan. Called
   * by the lane's publisher alone (on its thread, where it has one).
   */
  boolean publish(ChunkSlot slot, int[] taskArgs, int tasksPerChunk, int startState) {
    batch.clear();
    slot.addTasks(batch, taskArgs, tasksPerChunk, dfaHandle, startState);
    if (batch.size() == 0) {
      return false;
    }
    slot.lastTicket = Megakernel.batchTicket(kernel.publish(batch), batch.size() - 1);
    return true;
  }

  /** Fails the job when a task of this kernel faulted since the last look. */
  void checkFaults(ChunkSlot slot) {
    long faults = kernel.stats().faults();
    if (faults != faultsSeen) {
      throw PipelineException.backend((faults - faultsSeen) + " DFA_STEP task(s) faulted while scanning "
          + slot.file(0).file.path() + ". Fix: report this; the scan validates every range and table it publishes");
    }
  }

  /** Fails the job when this lane has tasks in flight and its kernel stopped, or made no progress for {@code limit}. */
  void checkProgress(long idleNanos, Duration limit) {
    if (!scanning.isEmpty() && (idleNanos > limit.toNanos() || !kernel.isKernelRunning())) {
      throw PipelineException.backend("DFA_STEP tasks of " + scanning.peek().file(0).file.path() + " did not finish within "
          + limit.toSeconds() + " s (" + kernel.summary() + "). Fix: check `vyre doctor` and the backend");
    }
  }

  /** Gives the table and the hit resources' host copies back to the pool; the publisher is closed first. */
  void close() {
    pool.giveBack(dfaHandle);
    hits.close();
    if (counters != null) {
      counters.close();
    }
  }
}
