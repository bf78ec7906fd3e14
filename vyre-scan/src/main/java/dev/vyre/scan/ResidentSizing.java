package dev.vyre.scan;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.wire.SlotLayout;

/**
 * The sizes of a resident scan's work ({@link ResidentScan}). A scan that only counts has no hit
 * buffer to size its batches to: its tasks are {@link #COUNT_TASK_SCALE} times a job's, so the host
 * writes that many times fewer slots for the same bytes, and its batches hold enough tasks for
 * {@link #COUNT_TASKS_PER_LANE} in flight per worker lane of the kernel, as far as the ring holds
 * them: with only about one task per lane in flight, the lanes finish together and wait while the
 * host refills the ring.
 */
public final class ResidentSizing {

  /** A counting scan's tasks, and so its batches, are this many times a job's. */
  private static final int COUNT_TASK_SCALE = 4;
  /** Tasks a counting scan keeps in flight per worker lane, ring permitting. */
  private static final int COUNT_TASKS_PER_LANE = 4;

  private ResidentSizing() {}

  /**
   * Ring slots for a kernel that runs resident scans with {@code options}: room for a counting scan's
   * deeper batches on a kernel with many lanes (a GPU), as {@link #COUNT_TASKS_PER_LANE} asks.
   */
  public static int ringSlots(ScanOptions options) {
    return (int) Math.min(SlotLayout.MAX_ENCODED_RING_SLOTS, (long) COUNT_TASKS_PER_LANE * options.ringSlots());
  }

  /**
   * Tasks per batch of a counting scan: {@link #COUNT_TASKS_PER_LANE} per worker lane over the batches
   * in flight, at least a chunk's and at most the ring's share of a batch.
   */
  public static int countBatchTasks(Megakernel kernel, ScanOptions options) {
    long lanes = (long) kernel.workerGroups() * kernel.lanesPerWorkerGroup();
    long wanted = Math.ceilDiv(COUNT_TASKS_PER_LANE * lanes, options.buffers());
    long room = kernel.slotCount() / options.buffers();
    return (int) Math.max(options.tasksPerChunk(), Math.min(wanted, room));
  }

  /**
   * Bytes per task of a resident scan with {@code options}: a job's, or {@link #COUNT_TASK_SCALE}
   * times that when it counts.
   */
  public static long taskBytes(ScanOptions options) {
    return options.keepHits() ? options.taskBytes() : COUNT_TASK_SCALE * options.taskBytes();
  }
}
