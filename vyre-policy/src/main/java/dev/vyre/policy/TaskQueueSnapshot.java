package dev.vyre.policy;

import static dev.vyre.policy.workitem.TaskLayout.AGE_TICKS_WORD;
import static dev.vyre.policy.workitem.TaskLayout.REQUEUE_COUNT_WORD;
import static dev.vyre.policy.workitem.TaskLayout.STATE_WORD;
import static dev.vyre.policy.workitem.TaskLayout.TASK_WORDS;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.InputException;
import dev.vyre.policy.workitem.TaskState;
import dev.vyre.policy.workitem.TaskWorkItem;
import java.util.List;

/**
 * Counts of a continuation-task queue by state, with requeue and aging totals, which turn a task
 * queue into a launch request (docs/PORTS.md, "Continuation tasks"). Counts are u32 held in a
 * {@code long}, {@code totalRequeues} a u64 bit pattern.
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

  /** Counts {@code tasks}; Empty and Done tasks are ignored. */
  public static TaskQueueSnapshot fromTasks(List<TaskWorkItem> tasks) {
    Tally tally = new Tally();
    for (TaskWorkItem task : tasks) {
      tally.add(task.state(), task.requeueCount(), task.ageTicks());
    }
    return tally.snapshot();
  }

  /**
   * Counts the tasks in {@code taskWords}, consecutive 16-word task items (vyre's
   * {@code from_tasks} over raw slots); Empty and Done tasks are ignored, other words are not
   * checked.
   *
   * @throws BackendException naming the first task whose state word is unknown
   */
  public static TaskQueueSnapshot fromTaskWords(int[] taskWords) {
    if (taskWords.length % TASK_WORDS != 0) {
      throw InputException.of("task queue", taskWords.length + " words are not a whole number of 16-word tasks",
          "pass complete task items");
    }
    Tally tally = new Tally();
    for (int base = 0; base < taskWords.length; base += TASK_WORDS) {
      int stateWord = taskWords[base + STATE_WORD];
      int task = base / TASK_WORDS;
      TaskState state = TaskState.fromWord(stateWord).orElseThrow(() -> BackendException.other("megakernel task "
          + task + " has unknown state word " + Unsigned.u32(stateWord)
          + ". Fix: publish task items with a TaskState from 0 to 7."));
      tally.add(state, taskWords[base + REQUEUE_COUNT_WORD], taskWords[base + AGE_TICKS_WORD]);
    }
    return tally.snapshot();
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

  /**
   * The running counts of both constructors. A Java array or list holds fewer than 2^31 tasks, so
   * no count can pass u32 and the requeue sum (each below 2^32) cannot pass u64: vyre's overflow
   * checks here have nothing to catch.
   */
  private static final class Tally {
    private final long[] byState = new long[TaskState.values().length];
    private long totalRequeues;
    private long maxAge;

    void add(TaskState state, int requeueCount, int ageTicks) {
      byState[state.word()]++;
      totalRequeues += Unsigned.u32(requeueCount);
      maxAge = Math.max(maxAge, Unsigned.u32(ageTicks));
    }

    TaskQueueSnapshot snapshot() {
      return new TaskQueueSnapshot(count(TaskState.Ready), count(TaskState.Paused), count(TaskState.Yielded),
          count(TaskState.Requeued), count(TaskState.Running), count(TaskState.Faulted), totalRequeues, maxAge);
    }

    private long count(TaskState state) {
      return byState[state.word()];
    }
  }
}
