package dev.vyre.runtime.policy;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.InputException;

/**
 * Counts of a continuation-task queue by state, with requeue and aging totals, which turn a task
 * queue into a launch request (vyre-runtime.md §2.8). Counts are u32 held in a {@code long},
 * {@code totalRequeues} a u64 bit pattern.
 *
 * @param ready tasks in Ready
 * @param paused tasks in Paused
 * @param yielded tasks in Yielded
 * @param requeued tasks in Requeued
 * @param running tasks in Running
 * @param faulted tasks in Faulted
 * @param totalRequeues the sum of every task's requeue count
 * @param maxPriorityAge the largest task age in ticks
 */
public record TaskQueueSnapshot(
    long ready, long paused, long yielded, long requeued, long running, long faulted, long totalRequeues,
    long maxPriorityAge) {

  /** Words per task item: the same 64 bytes as a ring slot. */
  public static final int TASK_WORDS = 16;

  private static final int STATE_WORD = 0;
  private static final int AGE_TICKS_WORD = 12;
  private static final int REQUEUE_COUNT_WORD = 13;

  /**
   * Counts the tasks in {@code taskWords}, consecutive 16-word task items; Empty and Done tasks are
   * ignored.
   *
   * @throws BackendException naming the first task whose state word is unknown
   */
  public static TaskQueueSnapshot fromTaskWords(int[] taskWords) {
    if (taskWords.length % TASK_WORDS != 0) {
      throw InputException.of("task queue", taskWords.length + " words are not a whole number of 16-word tasks",
          "pass complete task items");
    }
    long[] byState = new long[8];
    long totalRequeues = 0;
    long maxAge = 0;
    for (int base = 0; base < taskWords.length; base += TASK_WORDS) {
      int state = taskWords[base + STATE_WORD];
      if (state < 0 || state >= byState.length) {
        throw BackendException.other("megakernel task " + base / TASK_WORDS + " has unknown state word "
            + Unsigned.u32(state) + ". Fix: publish task items with a TaskState from 0 to 7.");
      }
      byState[state]++;
      totalRequeues += Unsigned.u32(taskWords[base + REQUEUE_COUNT_WORD]);
      maxAge = Math.max(maxAge, Unsigned.u32(taskWords[base + AGE_TICKS_WORD]));
    }
    // State numbers are the ring status numbers: Ready 1, Running 2, Paused 4, Yielded 5, Requeued 6, Faulted 7.
    return new TaskQueueSnapshot(byState[1], byState[4], byState[5], byState[6], byState[2], byState[7],
        totalRequeues, maxAge);
  }

  /** Tasks a launch can run now: ready, yielded and requeued. */
  public long schedulable() {
    return ready + yielded + requeued;
  }

  /** Pressure that continuations put on the scheduler: yielded + requeued tasks plus all their requeues. */
  public long continuationPressure() {
    return totalRequeues + yielded + requeued;
  }

  /**
   * {@code request} sized for this queue: its queue length becomes the schedulable count, the
   * continuation pressure adds to its requeue count, and its maximum priority age takes this one's
   * when larger.
   *
   * @throws BackendException when the requeue count would overflow u64
   */
  public MegakernelLaunchRequest applyTo(MegakernelLaunchRequest request) {
    long pressure = continuationPressure();
    if (Unsigned.addOverflows(request.requeueCount(), pressure)) {
      throw BackendException.other("megakernel task requeue count overflowed u64. "
          + "Fix: drain scheduler telemetry before counters reach u64::MAX.");
    }
    return request.toBuilder()
        .queueLen(schedulable())
        .requeueCount(request.requeueCount() + pressure)
        .maxPriorityAge(Math.max(request.maxPriorityAge(), maxPriorityAge))
        .build();
  }
}
