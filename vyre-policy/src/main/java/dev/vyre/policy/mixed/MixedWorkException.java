package dev.vyre.policy.mixed;

import dev.vyre.driver.error.ErrorVariant;
import dev.vyre.driver.error.PlanException;
import java.util.Map;

/**
 * vyre's {@code MixedWorkError}: a mixed-work plan that cannot be drained under a bounded watchdog.
 * The variants and their fields are vyre's (docs/PORTS.md, "Mixed work"); vyre gives no display
 * texts, so these are ours. Long fields are u64 bit patterns, printed unsigned.
 */
public final class MixedWorkException extends PlanException {

  /** This family's variants. */
  public enum Variant implements ErrorVariant {
    EmptyPlan,
    ZeroDrainWatchdogBudget,
    UnitCountOverflow,
    ZeroUnitWatchdogBudget,
    ZeroResidentArtifactId,
    ZeroOutputSlabId,
    QueueClassMismatch,
    WatchdogBudgetExceeded
  }

  private MixedWorkException(Variant variant, Map<String, Object> fields, String message) {
    super(variant, fields, message);
  }

  @Override
  public Variant variant() {
    return (Variant) super.variant();
  }

  @Override
  public String errorType() {
    return "MixedWorkError";
  }

  static MixedWorkException emptyPlan() {
    return new MixedWorkException(Variant.EmptyPlan, fieldMap(),
        "mixed-work plan has no units. Fix: add at least one unit, or skip the dispatch.");
  }

  static MixedWorkException zeroDrainWatchdogBudget() {
    return new MixedWorkException(Variant.ZeroDrainWatchdogBudget, fieldMap(),
        "mixed-work plan has a drain watchdog budget of 0 ticks, so the drain is unbounded. Fix: give the plan a"
            + " non-zero drain budget at least the sum of its unit budgets.");
  }

  static MixedWorkException unitCountOverflow(long units) {
    return new MixedWorkException(Variant.UnitCountOverflow, fieldMap(),
        "mixed-work plan has " + units + " units, above u32. Fix: split the batch into plans of at most 4294967295"
            + " units.");
  }

  static MixedWorkException zeroUnitWatchdogBudget(long sequence) {
    return new MixedWorkException(Variant.ZeroUnitWatchdogBudget, fieldMap("sequence", sequence),
        "mixed-work unit " + Long.toUnsignedString(sequence) + " has a watchdog budget of 0 ticks. Fix: give every"
            + " unit a non-zero watchdog budget.");
  }

  static MixedWorkException zeroResidentArtifactId(long sequence) {
    return new MixedWorkException(Variant.ZeroResidentArtifactId, fieldMap("sequence", sequence),
        "mixed-work unit " + Long.toUnsignedString(sequence) + " names resident artifact 0. Fix: make the artifact"
            + " resident first and pass its non-zero id.");
  }

  static MixedWorkException zeroOutputSlabId(long sequence) {
    return new MixedWorkException(Variant.ZeroOutputSlabId, fieldMap("sequence", sequence),
        "mixed-work unit " + Long.toUnsignedString(sequence) + " writes output slab 0. Fix: allocate an output slab"
            + " and pass its non-zero id.");
  }

  static MixedWorkException queueClassMismatch(long sequence, String queueClass, String unitType) {
    return new MixedWorkException(Variant.QueueClassMismatch,
        fieldMap("sequence", sequence, "class", queueClass, "unit_type", unitType),
        "mixed-work unit " + Long.toUnsignedString(sequence) + " files a " + unitType + " unit under the "
            + queueClass + " queue. Fix: file each unit type under its own queue class (MixedWorkUnitType.queueClass()).");
  }

  static MixedWorkException watchdogBudgetExceeded(long total, long drain) {
    return new MixedWorkException(Variant.WatchdogBudgetExceeded, fieldMap("total", total, "drain", drain),
        "mixed-work units need " + Long.toUnsignedString(total) + " watchdog ticks but the drain budget is "
            + Long.toUnsignedString(drain) + ". Fix: raise the drain budget or split the plan.");
  }
}
