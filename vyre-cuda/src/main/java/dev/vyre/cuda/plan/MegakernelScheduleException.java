package dev.vyre.cuda.plan;

import dev.vyre.driver.error.ErrorVariant;
import dev.vyre.driver.error.PlanException;
import java.util.Map;

/**
 * vyre's {@code MegakernelScheduleError} for the sample form of the fusion-pressure scheduler: an
 * Euler step, launch overhead, dispatch cost or frontier density outside its domain.
 */
public final class MegakernelScheduleException extends PlanException {

  /** This family's variants. */
  public enum Variant implements ErrorVariant {
    InvalidStep,
    InvalidLaunchOverhead,
    InvalidCost,
    InvalidFrontierDensity
  }

  private MegakernelScheduleException(Variant variant, Map<String, Object> fields, String message) {
    super(variant, fields, message);
  }

  @Override
  public Variant variant() {
    return (Variant) super.variant();
  }

  @Override
  public String errorType() {
    return "MegakernelScheduleError";
  }

  public static MegakernelScheduleException invalidStep(double value) {
    return new MegakernelScheduleException(Variant.InvalidStep, fieldMap("value", value), "megakernel homotopy scheduler dt="
        + value + " is not a non-negative finite value. Fix: choose a finite Euler step in [0, 1].");
  }

  public static MegakernelScheduleException invalidLaunchOverhead(double value) {
    return new MegakernelScheduleException(Variant.InvalidLaunchOverhead, fieldMap("value", value),
        "megakernel scale-aware scheduler launch_overhead_ns=" + value + " is not a non-negative finite value. Fix: "
            + "derive launch overhead from valid backend telemetry.");
  }

  public static MegakernelScheduleException invalidCost(long index, double value) {
    return new MegakernelScheduleException(Variant.InvalidCost, fieldMap("index", index, "value", value),
        "megakernel homotopy scheduler cost[" + index + "]=" + value + " is not a non-negative finite value. Fix: "
            + "sanitize dispatch-cost telemetry before scheduling.");
  }

  public static MegakernelScheduleException invalidFrontierDensity(long index, double value) {
    return new MegakernelScheduleException(Variant.InvalidFrontierDensity, fieldMap("index", index, "value", value),
        "megakernel scale-aware scheduler frontier_density[" + index + "]=" + value + " is not in [0, 1]. Fix: "
            + "sanitize runtime frontier telemetry before scheduling.");
  }
}
