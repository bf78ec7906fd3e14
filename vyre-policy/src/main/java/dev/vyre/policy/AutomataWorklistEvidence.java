package dev.vyre.policy;

/**
 * What {@link AutomataWorklistPolicy#evidence} decided for one worklist and why. u32 values are
 * held in a {@code long}.
 *
 * @param schemaVersion evidence schema, {@link #SCHEMA_VERSION}
 * @param queueDepth state/index pairs queued
 * @param occupancyBps the occupancy proxy, clamped to 10000 for reporting
 * @param mode the drain mode chosen
 * @param stateVisitBudget state visits allowed: {@code queueDepth * state_visit_budget_multiplier}
 * @param matchParityRequired always true: every mode must report the same matches
 * @param reportsStateIndexPairs always true: items travel as {@link
 *     dev.vyre.policy.workitem.AutomataStateIndex} pairs
 */
public record AutomataWorklistEvidence(
    int schemaVersion,
    long queueDepth,
    long occupancyBps,
    AutomataWorklistMode mode,
    long stateVisitBudget,
    boolean matchParityRequired,
    boolean reportsStateIndexPairs) {

  /** The automata worklist evidence schema. */
  public static final int SCHEMA_VERSION = 1;
}
