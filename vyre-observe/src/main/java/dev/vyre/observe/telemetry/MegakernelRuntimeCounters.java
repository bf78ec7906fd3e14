package dev.vyre.observe.telemetry;

import dev.vyre.runtime.wire.ControlLayout;

/**
 * Cheap aggregate counters of one snapshot for dashboards and launch-policy feedback (vyre's
 * {@code MegakernelRuntimeCounters}). u32 and u16 values are non-negative longs/ints, the
 * fairness totals u64 (they cannot exceed 2^37 here).
 *
 * @param totalSlots slots in the ring
 * @param queueDepth slots neither EMPTY nor DONE (FAULT and unknown included)
 * @param gpuIdleSlots EMPTY slots
 * @param gpuIdlePpm EMPTY slots per million, 0 for an empty ring
 * @param frontierDensityBps queue depth in basis points of the ring (u16, clamped to 65535)
 * @param occupancyProxyBps non-EMPTY slots in basis points of the ring (u16)
 * @param drainedSlots the control block's DONE_COUNT
 * @param unreclaimedDoneSlots DONE slots not yet republished
 * @param tenantFairnessTotal sum of the 32 tenant fairness counters
 * @param tenantFairnessSkew max minus min over the non-zero tenant counters (0 if none)
 * @param priorityFairnessTotal sum of the 5 priority fairness counters
 * @param requeueSlots REQUEUE slots
 * @param faultSlots FAULT slots
 */
public record MegakernelRuntimeCounters(long totalSlots, long queueDepth, long gpuIdleSlots, long gpuIdlePpm,
    int frontierDensityBps, int occupancyProxyBps, long drainedSlots, long unreclaimedDoneSlots,
    long tenantFairnessTotal, long tenantFairnessSkew, long priorityFairnessTotal, long requeueSlots, long faultSlots) {

  private static final long PPM = 1_000_000;
  private static final long BPS = 10_000;
  private static final long U16_MAX = 0xFFFF;

  /** vyre's {@code runtime_counters} over a decoded snapshot. */
  public static MegakernelRuntimeCounters of(RingTelemetry telemetry) {
    RingOccupancy occupancy = telemetry.occupancy();
    ControlSnapshot control = telemetry.control();
    long total = occupancy.totalSlots();
    long depth = occupancy.queueDepth();
    long idle = occupancy.empty();
    long idlePpm = total == 0 ? 0 : Math.min(idle * PPM / total, PPM);
    long tenantTotal = 0;
    long minNonZero = Long.MAX_VALUE;
    long max = 0;
    for (int t = 0; t < ControlLayout.TENANT_FAIRNESS_SLOTS; t++) {
      long count = control.tenantFairness(t);
      tenantTotal += count;
      if (count != 0) {
        minNonZero = Math.min(minNonZero, count);
        max = Math.max(max, count);
      }
    }
    long priorityTotal = 0;
    for (int p = 0; p < ControlLayout.PRIORITY_FAIRNESS_SLOTS; p++) {
      priorityTotal += control.priorityFairness(p);
    }
    return new MegakernelRuntimeCounters(total, depth, idle, idlePpm, densityBps(depth, total),
        densityBps(Math.max(total - idle, 0), total), control.doneCount(), occupancy.done(), tenantTotal,
        minNonZero == Long.MAX_VALUE ? 0 : max - minNonZero, priorityTotal, occupancy.requeue(), occupancy.fault());
  }

  /** ⌊n·10000/d⌋ clamped to u16, 0 when d is 0. */
  static int densityBps(long numerator, long denominator) {
    return denominator == 0 ? 0 : (int) Math.min(numerator * BPS / denominator, U16_MAX);
  }
}
