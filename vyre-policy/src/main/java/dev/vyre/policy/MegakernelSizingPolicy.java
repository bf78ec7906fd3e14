package dev.vyre.policy;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.InputException;

/**
 * Worker counts and grid geometry for resident megakernel launches: vyre's
 * {@code ResidentSizingPolicy} over the foundation {@code SchedulingPolicy} constants it uses.
 * Values are u32 held in a {@code long}.
 *
 * <p>One quirk is kept on purpose: the worker-group count doubles as the workgroup width, so
 * widths such as 51, 85, 96 or 255 occur.
 *
 * @param occupancyWorkerDivisor adapter workgroups per occupancy-derived worker group (256)
 * @param maxDispatchWorkgroups cap on the dispatch grid and on occupancy-derived workers (1024)
 * @param powerfulInvocationThreshold invocations per workgroup that mark a powerful adapter (4096)
 * @param powerfulMinWorkerGroups worker-group floor on a powerful adapter (64)
 * @param fusedOverDispatchMultiplier how far fused threads may over-dispatch the maximum (4)
 */
public record MegakernelSizingPolicy(
    long occupancyWorkerDivisor,
    long maxDispatchWorkgroups,
    long powerfulInvocationThreshold,
    long powerfulMinWorkerGroups,
    long fusedOverDispatchMultiplier) {

  private static final MegakernelSizingPolicy STANDARD = new MegakernelSizingPolicy(256, 1024, 4096, 64, 4);

  public MegakernelSizingPolicy {
    RangeCheck.u32("occupancy_worker_divisor", occupancyWorkerDivisor);
    RangeCheck.u32("max_dispatch_workgroups", maxDispatchWorkgroups);
    RangeCheck.u32("powerful_invocation_threshold", powerfulInvocationThreshold);
    RangeCheck.u32("powerful_min_worker_groups", powerfulMinWorkerGroups);
    RangeCheck.u32("fused_over_dispatch_multiplier", fusedOverDispatchMultiplier);
    // vyre divides by the first and clamps to the second; zero would panic there.
    if (occupancyWorkerDivisor == 0 || maxDispatchWorkgroups == 0) {
      throw InputException.of("launch policy", "occupancy_worker_divisor and max_dispatch_workgroups must be non-zero",
          "start from MegakernelSizingPolicy.standard()");
    }
  }

  /** The sizing vyre's megakernel dispatchers use. */
  public static MegakernelSizingPolicy standard() {
    return STANDARD;
  }

  /** The workgroup width for {@code workers}: at least 1, at most {@code max(maxX, 1)}. */
  public long workerWorkgroupSize(long workers, long maxX) {
    return workers == 0 ? 1 : Math.min(workers, Math.max(maxX, 1));
  }

  /** {@code slots} rounded up to whole workgroups (at least one), in saturating u32 arithmetic. */
  public long paddedSlotCount(long slots, long workgroupSize) {
    long width = Math.max(workgroupSize, 1);
    long groups = Math.max(ceilDivSaturating(slots, width), 1);
    return Math.min(groups * width, Unsigned.U32_MAX);
  }

  /** The x extent of the dispatch grid: enough groups for the queue, capped by workers and the maximum. */
  public long dispatchGridFor(long workers, long queueLen, long width) {
    long groups = Math.max(ceilDivSaturating(queueLen, Math.max(width, 1)), 1);
    return Math.min(Math.min(groups, Math.max(workers, 1)), maxDispatchWorkgroups);
  }

  /** Worker groups from adapter limits alone: occupancy, floored at 64 on powerful adapters. */
  public long defaultWorkerGroupsFromLimits(long maxWorkgroups, long maxInvocations) {
    long occupancy = Math.clamp(maxWorkgroups / occupancyWorkerDivisor, 1, maxDispatchWorkgroups);
    long floor = maxInvocations >= powerfulInvocationThreshold ? powerfulMinWorkerGroups : 1;
    return Math.max(occupancy, floor);
  }

  /** Geometry for {@code slots}: the worker count is also the lane width (vyre's quirk). */
  public MegakernelLaunchGeometry geometryFromSlots(long slots, long workers, long maxX) {
    long width = workerWorkgroupSize(workers, maxX);
    long slotCount = paddedSlotCount(slots, width);
    return new MegakernelLaunchGeometry(width, slotCount, dispatchGridFor(workers, slotCount, width));
  }

  /**
   * Worker groups and geometry for a queue on an adapter. Zero limits are rejected in the order x,
   * workgroups per dimension, invocations, even for an empty queue.
   *
   * @throws BackendException naming the first zero limit
   */
  public MegakernelGridPlan calculateOptimalGrid(MegakernelGridRequest request, MegakernelGridLimits limits) {
    return calculateOptimalGrid(request.queueLen(), request.requestedWorkerGroups(), limits.maxWorkgroupSizeX(),
        limits.maxComputeWorkgroupsPerDimension(), limits.maxComputeInvocationsPerWorkgroup());
  }

  /** {@link #calculateOptimalGrid(MegakernelGridRequest, MegakernelGridLimits)} on validated u32 values. */
  MegakernelGridPlan calculateOptimalGrid(
      long queueLen, long requestedWorkers, long maxX, long maxWorkgroups, long maxInvocations) {
    requireNonZeroLimit(maxX, "max_workgroup_size_x");
    requireNonZeroLimit(maxWorkgroups, "max_compute_workgroups_per_dimension");
    requireNonZeroLimit(maxInvocations, "max_compute_invocations_per_workgroup");
    long occupancy = Math.min(defaultWorkerGroupsFromLimits(maxWorkgroups, maxInvocations), maxWorkgroups);
    long workers = Math.max(requestedWorkers == 0 ? occupancy : Math.min(requestedWorkers, maxWorkgroups), 1);
    return new MegakernelGridPlan(geometryFromSlots(Math.max(queueLen, 1), workers, maxX), workers);
  }

  /** True when {@code fusedThreads} stays within the allowed over-dispatch of {@code maxThreads}. */
  public boolean allowFusedThreads(long fusedThreads, long maxThreads) {
    return fusedThreads <= fusedOverDispatchMultiplier * maxThreads;
  }

  private static void requireNonZeroLimit(long limit, String field) {
    if (limit == 0) {
      throw BackendException.other(
          "megakernel " + field + " must be non-zero. Fix: pass live adapter limits instead of a zero limit.");
    }
  }

  /** vyre's {@code ceil_sat}: {@code saturating_add(a, b - 1) / b}, which undercounts near u32::MAX. */
  private static long ceilDivSaturating(long a, long b) {
    return Unsigned.saturatingAddU32(a, b - 1) / b;
  }
}
