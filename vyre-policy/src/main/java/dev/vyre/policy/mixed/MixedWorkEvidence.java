package dev.vyre.policy.mixed;

/**
 * What a checked mixed-work plan will drain (vyre's mixed-work evidence, docs/PORTS.md, "Mixed
 * work"): units per queue class, the watchdog budgets, and a digest of every unit. Counts are u32
 * held in a {@code long}; the budget total, drain budget and digest are u64 bit patterns.
 *
 * @param schemaVersion evidence schema, {@link #SCHEMA_VERSION}
 * @param unitCount units in the plan
 * @param scanUnits units filed under {@link MixedWorkQueueClass#Scan}
 * @param graphUnits units filed under {@link MixedWorkQueueClass#Graph}
 * @param parserUnits units filed under {@link MixedWorkQueueClass#Parser}
 * @param flowUnits units filed under {@link MixedWorkQueueClass#Flow}
 * @param controlUnits units filed under {@link MixedWorkQueueClass#Control}
 * @param totalWatchdogBudgetTicks sum of the unit budgets, at most the drain budget
 * @param maxUnitWatchdogBudgetTicks the largest unit budget
 * @param drainWatchdogBudgetTicks the plan's drain budget
 * @param boundedDrain always true: a checked plan drains under its budget
 * @param hiddenHostLoopCount always 0: the host never re-drives units behind the plan's back
 * @param digest FNV-1a-64 of every unit's fields in unit order
 */
public record MixedWorkEvidence(
    int schemaVersion,
    long unitCount,
    long scanUnits,
    long graphUnits,
    long parserUnits,
    long flowUnits,
    long controlUnits,
    long totalWatchdogBudgetTicks,
    long maxUnitWatchdogBudgetTicks,
    long drainWatchdogBudgetTicks,
    boolean boundedDrain,
    long hiddenHostLoopCount,
    long digest) {

  /** The mixed-work evidence schema. */
  public static final int SCHEMA_VERSION = 1;

  /** Units filed under {@code queueClass}. */
  public long units(MixedWorkQueueClass queueClass) {
    return switch (queueClass) {
      case Scan -> scanUnits;
      case Graph -> graphUnits;
      case Parser -> parserUnits;
      case Flow -> flowUnits;
      case Control -> controlUnits;
    };
  }

  /** True when the schema is current, there are units, the drain is bounded with no hidden loops, and the digest is not 0. */
  public boolean isComplete() {
    return schemaVersion == SCHEMA_VERSION && unitCount != 0 && boundedDrain && hiddenHostLoopCount == 0 && digest != 0;
  }

  /** True when the batch mixes all four work domains: scan, graph, parser and flow each have a unit. */
  public boolean coversScanGraphParserFlow() {
    return scanUnits != 0 && graphUnits != 0 && parserUnits != 0 && flowUnits != 0;
  }
}
