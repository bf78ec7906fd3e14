package dev.vyre.policy;

import static dev.vyre.policy.TaskQueueSnapshotTest.PAUSED;
import static dev.vyre.policy.TaskQueueSnapshotTest.READY;
import static dev.vyre.policy.TaskQueueSnapshotTest.REQUEUED;
import static dev.vyre.policy.TaskQueueSnapshotTest.readyTask;
import static dev.vyre.policy.TaskQueueSnapshotTest.tasks;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.policy.workitem.TaskPriority;
import dev.vyre.policy.workitem.TaskWorkItem;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The queue-config vectors of docs/PORTS.md, "Sizing and grid", and row C1 of vyre's launch-policy acceptance table. */
class MegakernelQueueConfigTest {

  private static MegakernelQueueConfig withExpectedItems(long expected) {
    return new MegakernelQueueConfig(64, Duration.ofSeconds(60), expected, MegakernelWorkloadHints.NONE);
  }

  @Test
  void defaults() {
    assertEquals(withExpectedItems(0), MegakernelQueueConfig.defaults());
  }

  @Test
  void dispatchGridUsesTheWorkerCount() {
    assertEquals(2, new MegakernelQueueConfig(2, Duration.ofSeconds(1), 0, MegakernelWorkloadHints.NONE)
        .dispatchGrid(4096, 64));
    assertEquals(2, MegakernelQueueConfig.defaults().dispatchGrid(300, 256));
  }

  @Test
  void zeroWorkersOrWallTimeAreRejected() {
    assertThrows(InputException.class,
        () -> new MegakernelQueueConfig(0, Duration.ofSeconds(1), 0, MegakernelWorkloadHints.NONE));
    assertThrows(InputException.class,
        () -> new MegakernelQueueConfig(64, Duration.ZERO, 0, MegakernelWorkloadHints.NONE));
  }

  @Test
  void launchRequestCopiesHintsAndExpectedItems() {
    MegakernelWorkloadHints hints = new MegakernelWorkloadHints(1, 2, 3, 4, 5, 6, 7, 8);
    MegakernelQueueConfig config = new MegakernelQueueConfig(32, Duration.ofSeconds(1), 1, hints);
    assertEquals(new MegakernelLaunchRequest(10, 32, 256, 1024, 512, 0, 1, 1, 2, 0, 0, 3, 4, 5, 6, 7, 8),
        config.launchRequest(10, 256, 1024, 512));
    assertEquals(3, withExpectedItems(3).launchRequest(10, 256, 1024, 512).expectedHitsPerItem());
  }

  @Test
  void c1TaskConfigPath() {
    TaskQueueSnapshot snapshot = TaskQueueSnapshot.fromTaskWords(
        tasks(new int[] {READY, 0, 0}, new int[] {PAUSED, 0, 0}, new int[] {REQUEUED, 1, 1}));
    MegakernelQueueConfig config = withExpectedItems(2);
    assertEquals(MegakernelLaunchRequest.directBuilder(2, 64, 256).maxComputeWorkgroupsPerDimension(65536)
            .maxComputeInvocationsPerWorkgroup(1024).expectedHitsPerItem(2).requeueCount(2).maxPriorityAge(1).build(),
        config.launchRequestForTasks(snapshot, 256, 65536, 1024));
    assertEquals(MegakernelLaunchPolicyTest.row(64, 64, 1, 64, 1024, MegakernelQueuePressure.Saturated,
            MegakernelExecutionMode.Interpreter, MegakernelDispatchTopology.SparseFrontier, false, false, true, 16_384, 0),
        config.launchRecommendationForTasks(snapshot, 256, 65536, 1024));
  }

  @Test
  void c1TaskConfigPathFromTaskItems() {
    TaskWorkItem ready = readyTask();
    TaskQueueSnapshot snapshot = TaskQueueSnapshot.fromTasks(
        List.of(ready, ready.paused(10, 20, 30), ready.requeued(12, 22, TaskPriority.High)));
    MegakernelQueueConfig config = withExpectedItems(2);
    MegakernelLaunchRequest request = config.launchRequestForTasks(snapshot, 256, 65536, 1024);
    assertEquals(2, request.queueLen());
    assertEquals(2, request.expectedHitsPerItem());
    assertEquals(2, request.requeueCount());
    assertEquals(1, request.maxPriorityAge());
    MegakernelLaunchRecommendation recommendation = config.launchRecommendationForTasks(snapshot, 256, 65536, 1024);
    assertEquals(64, recommendation.geometry().workgroupSizeX());
    assertTrue(recommendation.agePriorityWork());
    assertEquals(MegakernelLaunchPolicyTest.row(64, 64, 1, 64, 1024, MegakernelQueuePressure.Saturated,
            MegakernelExecutionMode.Interpreter, MegakernelDispatchTopology.SparseFrontier, false, false, true, 16_384, 0),
        recommendation);
  }
}
