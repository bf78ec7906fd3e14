package dev.vyre.policy;

import dev.vyre.driver.BasisPoints;
import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;

/**
 * vyre's {@code AutomataWorklistPolicy} (docs/PORTS.md, "Automata worklist"): how a worklist of
 * automata or graph state/index pairs ({@link dev.vyre.policy.workitem.AutomataStateIndex}) is
 * drained, decided from its depth and the device occupancy, plus the state-visit budget that bounds
 * one drain. Values are u32 held in a {@code long}.
 *
 * @param nonblockingDepthThreshold depth at or above which workers stop blocking (64)
 * @param spillDepthThreshold depth above which the worklist must spill (1,048,576)
 * @param stateVisitBudgetMultiplier state visits allowed per queued pair (8)
 * @param lowOccupancyThresholdBps occupancy below which workers stop blocking (5000)
 */
public record AutomataWorklistPolicy(
    long nonblockingDepthThreshold,
    long spillDepthThreshold,
    long stateVisitBudgetMultiplier,
    long lowOccupancyThresholdBps) {

  private static final AutomataWorklistPolicy STANDARD = new AutomataWorklistPolicy(64, 1_048_576, 8, 5000);

  public AutomataWorklistPolicy {
    RangeCheck.u32("nonblocking_depth_threshold", nonblockingDepthThreshold);
    RangeCheck.u32("spill_depth_threshold", spillDepthThreshold);
    RangeCheck.u32("state_visit_budget_multiplier", stateVisitBudgetMultiplier);
    RangeCheck.u32("low_occupancy_threshold_bps", lowOccupancyThresholdBps);
  }

  /** The thresholds vyre ships. */
  public static AutomataWorklistPolicy standard() {
    return STANDARD;
  }

  /**
   * The drain mode for {@code queueDepth} pairs at {@code occupancyBps} (both u32). The tests run
   * in this order, so an empty worklist is Empty and an over-deep one spills whatever the
   * occupancy. Occupancy is compared as given; only the reported value is clamped.
   */
  public AutomataWorklistMode mode(long queueDepth, long occupancyBps) {
    RangeCheck.u32("queue_depth", queueDepth);
    RangeCheck.u32("occupancy_bps", occupancyBps);
    if (queueDepth == 0) {
      return AutomataWorklistMode.Empty;
    }
    if (queueDepth > spillDepthThreshold) {
      return AutomataWorklistMode.SpillRequired;
    }
    if (queueDepth >= nonblockingDepthThreshold || occupancyBps < lowOccupancyThresholdBps) {
      return AutomataWorklistMode.NonBlocking;
    }
    return AutomataWorklistMode.Blocking;
  }

  /**
   * {@code queueDepth * state_visit_budget_multiplier} in u32.
   *
   * @throws BackendException when the product overflows u32 (standard policy: depth above 536,870,911)
   */
  public long stateVisitBudget(long queueDepth) {
    RangeCheck.u32("queue_depth", queueDepth);
    long budget = Unsigned.checkedMulU32(queueDepth, stateVisitBudgetMultiplier);
    if (budget < 0) {
      throw BackendException.other("automata worklist state_visit_budget overflowed u32: queue depth " + queueDepth
          + " x state_visit_budget_multiplier " + stateVisitBudgetMultiplier + ". Fix: spill or shard the worklist "
          + "so that its depth times the multiplier fits in u32.");
    }
    return budget;
  }

  /**
   * The mode, budget and reported occupancy for one worklist. The budget is computed for every
   * mode, so an overflowing depth fails here even though {@link #mode} would say SpillRequired.
   *
   * @throws BackendException when the state-visit budget overflows u32
   */
  public AutomataWorklistEvidence evidence(long queueDepth, long occupancyBps) {
    AutomataWorklistMode mode = mode(queueDepth, occupancyBps);
    return new AutomataWorklistEvidence(AutomataWorklistEvidence.SCHEMA_VERSION, queueDepth,
        Math.min(occupancyBps, BasisPoints.DENOMINATOR), mode, stateVisitBudget(queueDepth), true, true);
  }
}
