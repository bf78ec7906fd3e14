package dev.vyre.runtime.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.InputException;
import org.junit.jupiter.api.Test;

/** The task-queue vectors of vyre-runtime.md §2.8. */
class TaskQueueSnapshotTest {

  static final int READY = 1;
  static final int DONE = 3;
  static final int PAUSED = 4;
  static final int YIELDED = 5;
  static final int REQUEUED = 6;

  /** Task words for tasks given as {state, ageTicks, requeueCount} triples. */
  static int[] tasks(int[]... stateAgeRequeues) {
    int[] words = new int[stateAgeRequeues.length * TaskQueueSnapshot.TASK_WORDS];
    for (int i = 0; i < stateAgeRequeues.length; i++) {
      words[i * 16] = stateAgeRequeues[i][0];
      words[i * 16 + 12] = stateAgeRequeues[i][1];
      words[i * 16 + 13] = stateAgeRequeues[i][2];
    }
    return words;
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
