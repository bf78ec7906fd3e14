package dev.vyre.driver.error;

import java.util.Map;

/**
 * Base of the planner error families ({@code MegakernelBarrierPlanError},
 * {@code MegakernelFrontierMemoryPlanError}, {@code MegakernelMemoryError},
 * {@code CudaMegakernelFrontierExecutionPlanError}). Each family is declared beside its planner.
 */
public abstract non-sealed class PlanException extends VyreException {

  protected PlanException(String variant, Map<String, Object> fields, String message) {
    super(variant, fields, message);
  }

  protected PlanException(String variant, Map<String, Object> fields, String message, Throwable cause) {
    super(variant, fields, message, cause);
  }
}
