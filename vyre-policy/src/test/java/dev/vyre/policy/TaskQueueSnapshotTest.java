package dev.vyre.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.InputException;
import dev.vyre.policy.workitem.TaskLayout;
import dev.vyre.policy.workitem.TaskPriority;
import dev.vyre.policy.workitem.TaskState;
import dev.vyre.policy.workitem.TaskWorkItem;
import dev.vyre.runtime.wire.RingPublisher.WorkItem;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The task-queue vectors of docs/PORTS.md, "Continuation tasks". */
class TaskQueueSnapshotTest {

  static final int READY = 1;
  static final int DONE = 3;
  static final int PAUSED = 4;
  static final int YIELDED = 5;
  static final int REQUEUED = 6;

  /** Task words for tasks given as {state, ageTicks, requeueCount} triples. */
  static int[] tasks(int[]... stateAgeRequeues) {
    int[] words = new int[stateAgeRequeues.length * TaskLayout.TASK_WORDS];
    for (int i = 0; i < stateAgeRequeues.length; i++) {
      words[(int) TaskLayout.word(i, TaskLayout.STATE_WORD)] = stateAgeRequeues[i][0];
      words[(int) TaskLayout.word(i, TaskLayout.AGE_TICKS_WORD)] = stateAgeRequeues[i][1];
      words[(int) TaskLayout.word(i, TaskLayout.REQUEUE_COUNT_WORD)] = stateAgeRequeues[i][2];
    }
    return words;
  }

  /** A Ready task with a payload, as vyre's task tests build one. */
  static TaskWorkItem readyTask() {
    return TaskWorkItem.fromWorkItem(1, 0, TaskPriority.Normal, new WorkItem(1, 11, 12, 13));
  }

  /** vyre's test queue: ready, paused, yielded, requeued twice (High then Critical), done. */
  static List<TaskWorkItem> vectorTasks() {
    TaskWorkItem ready = readyTask();
    return List.of(ready, ready.paused(10, 20, 30), ready.yielded(11, 21),
        ready.requeued(12, 22, TaskPriority.High).requeued(13, 23, TaskPriority.Critical), ready.completed());
  }

  @Test
  void countsTaskItems() {
    TaskQueueSnapshot snapshot = TaskQueueSnapshot.fromTasks(vectorTasks());
    assertEquals(1, snapshot.ready());
    assertEquals(1, snapshot.paused());
    assertEquals(1, snapshot.yielded());
    assertEquals(1, snapshot.requeued());
    assertEquals(3, snapshot.schedulable());
    assertEquals(2, snapshot.totalRequeues());
    assertEquals(2, snapshot.maxPriorityAge());
    assertEquals(new TaskQueueSnapshot(1, 1, 1, 1, 0, 0, 2, 2), snapshot);
  }

  @Test
  void taskItemsApplyToADirectRequest() {
    MegakernelLaunchRequest applied = TaskQueueSnapshot.fromTasks(vectorTasks())
        .applyTo(MegakernelLaunchRequest.direct(99, 64, 256));
    assertEquals(3, applied.queueLen());
    assertEquals(4, applied.requeueCount());
    assertEquals(2, applied.maxPriorityAge());
  }

  @Test
  void itemsAndTheirWordsCountAlike() {
    // Counters at u32 max: the requeue sum is u64 and the age unsigned.
    TaskWorkItem running = new TaskWorkItem(TaskState.Running, 0, 0,
        TaskPriority.Low, 0, 0, 0, 0, 0, 0, 9, 0, -1, -1, 0, 0);
    List<TaskWorkItem> tasks = new ArrayList<>(vectorTasks());
    tasks.add(running);
    tasks.add(running.faulted(5));
    int[] words = tasks.stream().map(TaskWorkItem::toWords).flatMapToInt(Arrays::stream).toArray();
    TaskQueueSnapshot snapshot = TaskQueueSnapshot.fromTasks(tasks);
    assertEquals(TaskQueueSnapshot.fromTaskWords(words), snapshot);
    assertEquals(new TaskQueueSnapshot(1, 1, 1, 1, 1, 1, 2 + 2 * 0xFFFF_FFFFL, 0xFFFF_FFFFL), snapshot);
    assertEquals(new TaskQueueSnapshot(0, 0, 0, 0, 0, 0, 0, 0), TaskQueueSnapshot.fromTasks(List.of()));
  }

  @Test
  void countsStatesAndContinuationPressure() {
    // ready, paused, yielded (yield_count 1), requeued twice (age 2, requeues 2), done.
    TaskQueueSnapshot snapshot = TaskQueueSnapshot.fromTaskWords(tasks(new int[] {READY, 0, 0},
        new int[] {PAUSED, 0, 0}, new int[] {YIELDED, 0, 0}, new int[] {REQUEUED, 2, 2}, new int[] {DONE, 0, 0}));
    assertEquals(new TaskQueueSnapshot(1, 1, 1, 1, 0, 0, 2, 2), snapshot);
    assertEquals(3, snapshot.schedulable());
    assertEquals(4, snapshot.continuationPressure());
  }

  @Test
  void applyingToARequestSetsQueueRequeuesAndAge() {
    TaskQueueSnapshot snapshot = new TaskQueueSnapshot(1, 1, 1, 1, 0, 0, 2, 2);
    MegakernelLaunchRequest applied = snapshot.applyTo(MegakernelLaunchRequest.direct(99, 64, 256));
    assertEquals(MegakernelLaunchRequest.directBuilder(3, 64, 256).requeueCount(4).maxPriorityAge(2).build(), applied);
  }

  @Test
  void unknownStateWordsAreErrors() {
    int[] words = tasks(new int[] {READY, 0, 0}, new int[] {9, 0, 0});
    BackendException error = assertThrows(BackendException.class, () -> TaskQueueSnapshot.fromTaskWords(words));
    assertTrue(error.getMessage().contains("unknown state word 9"));
    words[16] = -1;
    assertTrue(assertThrows(BackendException.class, () -> TaskQueueSnapshot.fromTaskWords(words)).getMessage()
        .contains("unknown state word 4294967295"));
  }

  @Test
  void partialTaskItemsAreRejected() {
    assertThrows(InputException.class, () -> TaskQueueSnapshot.fromTaskWords(new int[17]));
    assertEquals(new TaskQueueSnapshot(0, 0, 0, 0, 0, 0, 0, 0), TaskQueueSnapshot.fromTaskWords(new int[0]));
  }

  @Test
  void requeueOverflowIsAnError() {
    MegakernelLaunchRequest request = MegakernelLaunchRequest.directBuilder(1, 64, 256).requeueCount(-1).build();
    TaskQueueSnapshot snapshot = TaskQueueSnapshot.fromTaskWords(tasks(new int[] {YIELDED, 0, 0}));
    assertThrows(BackendException.class, () -> snapshot.applyTo(request));
    assertEquals(request.toBuilder().queueLen(0).build(),
        TaskQueueSnapshot.fromTaskWords(new int[0]).applyTo(request));
  }
}
