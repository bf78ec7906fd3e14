package dev.vyre.policy.adapt;

import dev.vyre.policy.MegakernelDispatchTopology;
import dev.vyre.policy.MegakernelLaunchPolicy;
import dev.vyre.policy.MegakernelLaunchRecommendation;
import dev.vyre.policy.MegakernelLaunchRequest;

/**
 * How many of a kernel's worker groups should claim work for a queue: the launch policy's
 * recommendation for the kernel's real shape, read as a persistent kernel can apply it. A request
 * names the kernel's groups as the worker ceiling and its lanes per group as the adapter's
 * workgroup limits (vyre's direct request); the recommendation's dispatch grid, which covers the
 * queue with groups of the policy's width, is the number of groups to keep active. The same
 * decision sizes a kernel at boot, from the job's expected queue, and while it runs, from telemetry.
 *
 * @param launch the policy that decides
 */
public record WorkerGroupPolicy(MegakernelLaunchPolicy launch) {

  /** The standard launch policy's decisions. */
  public static WorkerGroupPolicy standard() {
    return new WorkerGroupPolicy(MegakernelLaunchPolicy.standard());
  }

  /**
   * One decision and its evidence.
   *
   * @param activeGroups worker groups to keep claiming work, 1..groups
   * @param request what the policy was asked
   * @param recommendation what it answered
   */
  public record Decision(int activeGroups, MegakernelLaunchRequest request, MegakernelLaunchRecommendation recommendation) {

    /** One line for {@code --verbose}: the decision and the figures it came from. */
    public String evidence() {
      return activeGroups + " of " + request.requestedWorkerGroups() + " worker groups for a queue of "
          + request.queueLen() + " (" + recommendation.pressure() + ", " + recommendation.topology() + ", grid "
          + recommendation.geometry().dispatchGridX() + " x " + recommendation.geometry().workgroupSizeX() + ")";
    }
  }

  /**
   * The decision for {@code queueLen} tasks waiting or running on a kernel of {@code groups} worker
   * groups of {@code lanesPerGroup} lanes, with {@code requeues} continuations since the last
   * decision; {@code previous} (or null) keeps the topology inside the seeds' hysteresis band.
   */
  public Decision decide(int groups, int lanesPerGroup, long queueLen, long requeues, MegakernelDispatchTopology previous) {
    MegakernelLaunchRequest request = MegakernelLaunchRequest.directBuilder(Math.min(queueLen, 0xFFFF_FFFFL), groups, lanesPerGroup)
        .requeueCount(requeues).build();
    MegakernelLaunchRecommendation recommendation = previous == null
        ? launch.recommend(request)
        : launch.recommendWithPreviousTopology(request, previous);
    int active = (int) Math.clamp(recommendation.geometry().dispatchGridX(), 1, groups);
    return new Decision(active, request, recommendation);
  }
}
