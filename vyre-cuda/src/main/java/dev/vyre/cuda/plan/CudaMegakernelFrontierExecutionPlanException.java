package dev.vyre.cuda.plan;

import dev.vyre.driver.error.ErrorVariant;
import dev.vyre.driver.error.PlanException;
import dev.vyre.driver.planner.MegakernelBarrierPlanException;
import dev.vyre.driver.planner.MegakernelFrontierMemoryPlanException;
import dev.vyre.driver.planner.MegakernelMemoryException;
import java.util.Map;

/**
 * vyre's {@code CudaMegakernelFrontierExecutionPlanError}: the dependency graph cannot be
 * barrier-planned ({@code Barrier}), byte accounting overflowed, the graph or a fused wave exceeds
 * the budget, the cache-backed memory plan failed ({@code Memory}), or storage could not be
 * reserved. {@code Barrier} and {@code Memory} carry the driver error as {@code inner}.
 */
public final class CudaMegakernelFrontierExecutionPlanException extends PlanException {

  /** This family's variants. */
  public enum Variant implements ErrorVariant {
    Barrier,
    Memory,
    ByteCountOverflow,
    GroupOverBudget,
    StorageReserveFailed
  }

  private CudaMegakernelFrontierExecutionPlanException(Variant variant, Map<String, Object> fields, String message) {
    super(variant, fields, message);
  }

  @Override
  public Variant variant() {
    return (Variant) super.variant();
  }

  @Override
  public String errorType() {
    return "CudaMegakernelFrontierExecutionPlanError";
  }

  public static CudaMegakernelFrontierExecutionPlanException barrier(MegakernelBarrierPlanException inner) {
    return new CudaMegakernelFrontierExecutionPlanException(Variant.Barrier, fieldMap("inner", inner), inner.display());
  }

  public static CudaMegakernelFrontierExecutionPlanException memory(MegakernelMemoryException inner) {
    return new CudaMegakernelFrontierExecutionPlanException(Variant.Memory, fieldMap("inner", inner), inner.display());
  }

  public static CudaMegakernelFrontierExecutionPlanException byteCountOverflow(String field) {
    return new CudaMegakernelFrontierExecutionPlanException(Variant.ByteCountOverflow, fieldMap("field", field),
        "CUDA megakernel frontier execution planner overflowed while accumulating " + field
            + ". Fix: shard the frontier wave group or split the fused phase.");
  }

  public static CudaMegakernelFrontierExecutionPlanException groupOverBudget(long requiredBytes, long budgetBytes,
      String field) {
    return new CudaMegakernelFrontierExecutionPlanException(Variant.GroupOverBudget,
        fieldMap("required_bytes", requiredBytes, "budget_bytes", budgetBytes, "field", field),
        "CUDA megakernel frontier execution planner requires " + Long.toUnsignedString(requiredBytes) + " bytes for "
            + field + " but budget allows " + Long.toUnsignedString(budgetBytes)
            + ". Fix: shard the graph/frontier waves or raise the explicit CUDA megakernel budget.");
  }

  public static CudaMegakernelFrontierExecutionPlanException storageReserveFailed(String field, long requested,
      String message) {
    return new CudaMegakernelFrontierExecutionPlanException(Variant.StorageReserveFailed,
        fieldMap("field", field, "requested", requested, "message", message),
        "CUDA megakernel frontier execution planner could not reserve " + Long.toUnsignedString(requested) + " "
            + field + " entries: " + message + ". Fix: shard the frontier waves before planning.");
  }

  /** vyre's {@code From<MegakernelFrontierMemoryPlanError>}: each variant maps onto the same-named one. */
  static CudaMegakernelFrontierExecutionPlanException from(MegakernelFrontierMemoryPlanException error) {
    Map<String, Object> fields = error.fields();
    return switch (error.variant()) {
      case Barrier -> barrier((MegakernelBarrierPlanException) fields.get("inner"));
      case ByteCountOverflow -> byteCountOverflow((String) fields.get("field"));
      case GroupOverBudget -> groupOverBudget((Long) fields.get("required_bytes"), (Long) fields.get("budget_bytes"),
          (String) fields.get("field"));
      case StorageReserveFailed -> storageReserveFailed((String) fields.get("field"), (Long) fields.get("requested"),
          (String) fields.get("message"));
    };
  }
}
