package dev.vyre.policy;

import dev.vyre.driver.error.InputException;
import java.time.Duration;

/**
 * How a resident queue is run (vyre's {@code ResidentQueueConfig}): workers, a wall-time limit,
 * the expected items per worker and workload hints, and the launch requests they imply. u32 values
 * are held in a {@code long}.
 *
 * @param workerCount worker groups to request; must be non-zero
 * @param maxWallTime wall-time limit of a run; must be positive
 * @param expectedItemsPerWorker expected hits per item when above 1
 * @param workload telemetry hints copied into every launch request
 */
public record MegakernelQueueConfig(
    long workerCount, Duration maxWallTime, long expectedItemsPerWorker, MegakernelWorkloadHints workload) {

  public MegakernelQueueConfig {
    RangeCheck.u32("worker_count", workerCount);
    RangeCheck.u32("expected_items_per_worker", expectedItemsPerWorker);
    if (workerCount == 0) {
      throw InputException.of("queue config", "worker_count is 0", "request at least one worker group");
    }
    if (maxWallTime.isZero() || maxWallTime.isNegative()) {
      throw InputException.of("queue config", "max_wall_time is " + maxWallTime, "give the run a positive wall-time limit");
    }
  }

  /** 64 workers, 60 seconds, no expected items, no hints. */
  public static MegakernelQueueConfig defaults() {
    return new MegakernelQueueConfig(64, Duration.ofSeconds(60), 0, MegakernelWorkloadHints.NONE);
  }

  /** The dispatch grid x extent for {@code queueLen} items at width {@code maxX}. */
  public long dispatchGrid(long queueLen, long maxX) {
    return MegakernelSizingPolicy.standard().dispatchGridFor(workerCount, queueLen, maxX);
  }

  /** A launch request for {@code queueLen} items on an adapter with these limits. */
  public MegakernelLaunchRequest launchRequest(
      long queueLen, long maxWorkgroupSizeX, long maxWorkgroupsPerDimension, long maxInvocationsPerWorkgroup) {
    return new MegakernelLaunchRequest(queueLen, workerCount, maxWorkgroupSizeX, maxWorkgroupsPerDimension,
        maxInvocationsPerWorkgroup, 0, expectedItemsPerWorker > 1 ? expectedItemsPerWorker : 1,
        workload.hotOpcodeCount(), workload.hotWindowCount(), 0, 0, workload.graphNodeCount(),
        workload.graphEdgeCount(), workload.frontierDensityBps(), workload.memoryPressureBps(),
        workload.residentDeviceBytes(), workload.deviceMemoryBudgetBytes());
  }

  /** A launch request for the schedulable tasks of {@code tasks}. */
  public MegakernelLaunchRequest launchRequestForTasks(
      TaskQueueSnapshot tasks, long maxWorkgroupSizeX, long maxWorkgroupsPerDimension, long maxInvocationsPerWorkgroup) {
    return tasks.applyTo(launchRequest(0, maxWorkgroupSizeX, maxWorkgroupsPerDimension, maxInvocationsPerWorkgroup));
  }

  /** The standard policy's recommendation for the schedulable tasks of {@code tasks}. */
  public MegakernelLaunchRecommendation launchRecommendationForTasks(
      TaskQueueSnapshot tasks, long maxWorkgroupSizeX, long maxWorkgroupsPerDimension, long maxInvocationsPerWorkgroup) {
    return MegakernelLaunchPolicy.standard().recommend(
        launchRequestForTasks(tasks, maxWorkgroupSizeX, maxWorkgroupsPerDimension, maxInvocationsPerWorkgroup));
  }
}
