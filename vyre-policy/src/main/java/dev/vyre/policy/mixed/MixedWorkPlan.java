package dev.vyre.policy.mixed;

import dev.vyre.driver.Unsigned;
import java.util.List;

/**
 * A batch of scan, graph, parser, flow and control units drained under one watchdog budget (vyre's
 * mixed-work plan, docs/PORTS.md, "Mixed work"). The plan itself is unchecked; {@link #evidence()}
 * checks it and summarises it.
 *
 * @param units the units in batch order (copied)
 * @param drainWatchdogBudgetTicks (u64) ticks the whole drain may take
 */
public record MixedWorkPlan(List<MixedWorkUnit> units, long drainWatchdogBudgetTicks) {

  private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  public MixedWorkPlan {
    units = List.copyOf(units);
  }

  /**
   * Checks the plan and returns its evidence. The checks run in vyre's order, so a plan with several
   * faults reports the one vyre reports: an empty plan, a zero drain budget, more than u32 units,
   * then each unit in order (zero budget, zero artifact, zero slab, class mismatch), and last the
   * unit budgets' sum against the drain budget.
   *
   * @throws MixedWorkException for the first fault found
   */
  public MixedWorkEvidence evidence() {
    if (units.isEmpty()) {
      throw MixedWorkException.emptyPlan();
    }
    if (drainWatchdogBudgetTicks == 0) {
      throw MixedWorkException.zeroDrainWatchdogBudget();
    }
    // A Java list never holds more than 2^31 - 1 units; the check stays for vyre's order and because
    // it is what keeps the u64 sum of u32 unit budgets below from overflowing.
    if (!Unsigned.fitsU32(units.size())) {
      throw MixedWorkException.unitCountOverflow(units.size());
    }
    long[] perClass = new long[MixedWorkQueueClass.values().length];
    long total = 0;
    long max = 0;
    for (MixedWorkUnit unit : units) {
      check(unit);
      perClass[unit.queueClass().ordinal()]++;
      long budget = Unsigned.u32(unit.watchdogBudgetTicks());
      total += budget;
      max = Math.max(max, budget);
    }
    if (Unsigned.compareU64(total, drainWatchdogBudgetTicks) > 0) {
      throw MixedWorkException.watchdogBudgetExceeded(total, drainWatchdogBudgetTicks);
    }
    return new MixedWorkEvidence(MixedWorkEvidence.SCHEMA_VERSION, units.size(),
        perClass[MixedWorkQueueClass.Scan.ordinal()], perClass[MixedWorkQueueClass.Graph.ordinal()],
        perClass[MixedWorkQueueClass.Parser.ordinal()], perClass[MixedWorkQueueClass.Flow.ordinal()],
        perClass[MixedWorkQueueClass.Control.ordinal()], total, max, drainWatchdogBudgetTicks, true, 0, digest());
  }

  private static void check(MixedWorkUnit unit) {
    long sequence = unit.sequence();
    if (unit.watchdogBudgetTicks() == 0) {
      throw MixedWorkException.zeroUnitWatchdogBudget(sequence);
    }
    if (unit.residentArtifactId() == 0) {
      throw MixedWorkException.zeroResidentArtifactId(sequence);
    }
    if (unit.outputSlabId() == 0) {
      throw MixedWorkException.zeroOutputSlabId(sequence);
    }
    if (unit.unitType().queueClass() != unit.queueClass()) {
      throw MixedWorkException.queueClassMismatch(sequence, unit.queueClass().label(), unit.unitType().label());
    }
  }

  /**
   * FNV-1a-64 over each unit's fields in unit order, every field widened to u64 and fed as its 8
   * little-endian bytes: sequence, class tag, type tag, artifact, slab, budget, payload digest.
   */
  private long digest() {
    long hash = FNV_OFFSET_BASIS;
    for (MixedWorkUnit unit : units) {
      hash = fold(hash, unit.sequence());
      hash = fold(hash, unit.queueClass().tag());
      hash = fold(hash, unit.unitType().tag());
      hash = fold(hash, Unsigned.u32(unit.residentArtifactId()));
      hash = fold(hash, Unsigned.u32(unit.outputSlabId()));
      hash = fold(hash, Unsigned.u32(unit.watchdogBudgetTicks()));
      hash = fold(hash, unit.payloadDigest());
    }
    return hash;
  }

  private static long fold(long hash, long value) {
    for (int shift = 0; shift < Long.SIZE; shift += Byte.SIZE) {
      hash ^= (value >>> shift) & 0xFF;
      hash *= FNV_PRIME;
    }
    return hash;
  }
}
