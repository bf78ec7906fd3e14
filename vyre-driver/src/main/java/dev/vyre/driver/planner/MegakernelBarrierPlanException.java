package dev.vyre.driver.planner;

import dev.vyre.driver.error.ErrorVariant;
import dev.vyre.driver.error.PlanException;
import java.util.Map;

/**
 * vyre's {@code MegakernelBarrierPlanError}: a dependency names a wave outside the graph, a wave
 * depends on itself, the graph has a cycle, CSR arithmetic overflowed, or planner storage could
 * not be reserved. Display texts are vyre's.
 */
public final class MegakernelBarrierPlanException extends PlanException {

  /** This family's variants. */
  public enum Variant implements ErrorVariant {
    InvalidWave,
    SelfDependency,
    Cycle,
    ByteCountOverflow,
    StorageReserveFailed
  }

  static final ReservationPolicy RESERVATION =
      new ReservationPolicy("megakernel barrier planner", "shard the dependency graph before barrier planning");

  private MegakernelBarrierPlanException(Variant variant, Map<String, Object> fields, String message) {
    super(variant, fields, message);
  }

  @Override
  public Variant variant() {
    return (Variant) super.variant();
  }

  @Override
  public String errorType() {
    return "MegakernelBarrierPlanError";
  }

  public static MegakernelBarrierPlanException invalidWave(long waveCount, long before, long after) {
    return new MegakernelBarrierPlanException(Variant.InvalidWave,
        fieldMap("wave_count", waveCount, "before", before, "after", after),
        "megakernel dependency references invalid wave before=" + Long.toUnsignedString(before)
            + " after=" + Long.toUnsignedString(after) + " for wave_count=" + Long.toUnsignedString(waveCount)
            + ". Fix: emit dependencies only over normalized wave indices.");
  }

  public static MegakernelBarrierPlanException selfDependency(long wave) {
    return new MegakernelBarrierPlanException(Variant.SelfDependency, fieldMap("wave", wave),
        "megakernel wave " + Long.toUnsignedString(wave) + " depends on itself. Fix: remove the self-edge or split "
            + "the wave into distinct producer/consumer phases.");
  }

  public static MegakernelBarrierPlanException cycle(long unscheduledWaves) {
    return new MegakernelBarrierPlanException(Variant.Cycle, fieldMap("unscheduled_waves", unscheduledWaves),
        "megakernel wave dependency graph contains a cycle with " + unscheduledWaves + " unscheduled waves. Fix: "
            + "break the cyclic dataflow edge or insert an explicit iterative fixed-point kernel.");
  }

  public static MegakernelBarrierPlanException byteCountOverflow(String field) {
    return new MegakernelBarrierPlanException(Variant.ByteCountOverflow, fieldMap("field", field),
        "megakernel barrier planner overflowed while computing " + field
            + ". Fix: shard the dependency graph before barrier planning.");
  }

  public static MegakernelBarrierPlanException storageReserveFailed(String field, long requested, String message) {
    return new MegakernelBarrierPlanException(Variant.StorageReserveFailed,
        fieldMap("field", field, "requested", requested, "message", message),
        "megakernel barrier planner could not reserve " + Long.toUnsignedString(requested) + " " + field
            + " entries: " + message + ". Fix: shard the dependency graph before barrier planning.");
  }
}
