package dev.vyre.policy.mixed;

import java.util.Objects;

/**
 * One unit of a mixed-work batch (vyre's {@code MixedWorkUnit}, docs/PORTS.md, "Mixed work"): which
 * queue drains it, what it does, the resident artifact it runs against, the output slab it writes,
 * and the watchdog ticks it may take. The int components are u32 bit patterns, the long ones u64
 * bit patterns; {@link MixedWorkPlan#evidence()} checks them, so any value can be built here.
 *
 * @param sequence the unit's position in the caller's batch; names the unit in errors
 * @param queueClass the queue the unit is filed under
 * @param unitType what the unit does; must belong to {@code queueClass}
 * @param residentArtifactId the resident program or table the unit runs against; 0 is refused
 * @param outputSlabId the slab the unit writes; 0 is refused
 * @param watchdogBudgetTicks ticks the unit may run before the watchdog fires; 0 is refused
 * @param payloadDigest the caller's digest of the unit's input
 */
public record MixedWorkUnit(
    long sequence,
    MixedWorkQueueClass queueClass,
    MixedWorkUnitType unitType,
    int residentArtifactId,
    int outputSlabId,
    int watchdogBudgetTicks,
    long payloadDigest) {

  public MixedWorkUnit {
    Objects.requireNonNull(queueClass, "queueClass");
    Objects.requireNonNull(unitType, "unitType");
  }
}
