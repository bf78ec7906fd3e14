package dev.vyre.driver.planner;

import dev.vyre.driver.error.ErrorVariant;
import dev.vyre.driver.error.PlanException;
import java.util.Map;

/**
 * vyre's {@code MegakernelMemoryError}: byte accounting overflowed while planning device
 * residency, or a topology's plan exceeds the caller-approved budget.
 */
public final class MegakernelMemoryException extends PlanException {

  /** This family's variants. */
  public enum Variant implements ErrorVariant {
    ByteCountOverflow,
    OverBudget
  }

  private MegakernelMemoryException(Variant variant, Map<String, Object> fields, String message) {
    super(variant, fields, message);
  }

  @Override
  public Variant variant() {
    return (Variant) super.variant();
  }

  @Override
  public String errorType() {
    return "MegakernelMemoryError";
  }

  /** True for {@code OverBudget}: the plan was computed and does not fit. */
  public boolean isOverBudget() {
    return variant() == Variant.OverBudget;
  }

  public static MegakernelMemoryException byteCountOverflow(String field) {
    return new MegakernelMemoryException(Variant.ByteCountOverflow, fieldMap("field", field),
        "megakernel memory planner overflowed while computing " + field
            + ". Fix: shard the graph or lower the candidate topology before planning device residency.");
  }

  public static MegakernelMemoryException overBudget(MegakernelExecutionTopology topology, long requiredBytes,
      long budgetBytes, long nodeCount, long edgeCount) {
    return new MegakernelMemoryException(Variant.OverBudget,
        fieldMap("topology", topology.name(), "required_bytes", requiredBytes, "budget_bytes", budgetBytes,
            "node_count", nodeCount, "edge_count", edgeCount),
        "megakernel " + topology.name() + " plan requires " + Long.toUnsignedString(requiredBytes)
            + " bytes but budget allows " + Long.toUnsignedString(budgetBytes) + " bytes for graph nodes="
            + Long.toUnsignedString(nodeCount) + " edges=" + Long.toUnsignedString(edgeCount)
            + ". Fix: choose a sparse topology, reduce fusion pressure, shard the graph, or raise the explicit "
            + "device-memory budget.");
  }
}
