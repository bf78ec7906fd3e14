package dev.vyre.driver.planner;

import dev.vyre.driver.error.ErrorVariant;
import dev.vyre.driver.error.PlanException;
import java.util.Map;

/**
 * vyre's {@code MegakernelFrontierMemoryPlanError}: the dependency graph cannot be barrier-planned
 * ({@code Barrier}, wrapping the barrier error as {@code inner}), byte accounting overflowed, the
 * graph or one fused wave exceeds the budget, or storage could not be reserved.
 */
public final class MegakernelFrontierMemoryPlanException extends PlanException {

  /** This family's variants. */
  public enum Variant implements ErrorVariant {
    Barrier,
    ByteCountOverflow,
    GroupOverBudget,
    StorageReserveFailed
  }

  static final ReservationPolicy RESERVATION = new ReservationPolicy("megakernel frontier memory planner",
      "shard the frontier wave group or split the fused phase");

  private MegakernelFrontierMemoryPlanException(Variant variant, Map<String, Object> fields, String message) {
    super(variant, fields, message);
  }

  @Override
  public Variant variant() {
    return (Variant) super.variant();
  }

  @Override
  public String errorType() {
    return "MegakernelFrontierMemoryPlanError";
  }

  /** {@code Barrier(e)}: displayed as the inner error. */
  public static MegakernelFrontierMemoryPlanException barrier(MegakernelBarrierPlanException inner) {
    return new MegakernelFrontierMemoryPlanException(Variant.Barrier, fieldMap("inner", inner), inner.display());
  }

  public static MegakernelFrontierMemoryPlanException byteCountOverflow(String field) {
    return new MegakernelFrontierMemoryPlanException(Variant.ByteCountOverflow, fieldMap("field", field),
        "megakernel frontier memory planner overflowed while accumulating " + field
            + ". Fix: shard the frontier wave group or split the fused phase.");
  }

  public static MegakernelFrontierMemoryPlanException groupOverBudget(long requiredBytes, long budgetBytes, String field) {
    return new MegakernelFrontierMemoryPlanException(Variant.GroupOverBudget,
        fieldMap("required_bytes", requiredBytes, "budget_bytes", budgetBytes, "field", field),
        "megakernel frontier memory planner requires " + Long.toUnsignedString(requiredBytes) + " bytes for " + field
            + " but budget allows " + Long.toUnsignedString(budgetBytes)
            + ". Fix: shard the graph/frontier waves or raise the explicit megakernel budget.");
  }

  public static MegakernelFrontierMemoryPlanException storageReserveFailed(String field, long requested, String message) {
    return new MegakernelFrontierMemoryPlanException(Variant.StorageReserveFailed,
        fieldMap("field", field, "requested", requested, "message", message),
        "megakernel frontier memory planner could not reserve " + Long.toUnsignedString(requested) + " " + field
            + " entries: " + message + ". Fix: shard the frontier waves before planning.");
  }
}
