package dev.vyre.driver.error;

import java.util.Map;

/**
 * Base of the planner error families ({@code MegakernelBarrierPlanError},
 * {@code MegakernelFrontierMemoryPlanError}, {@code MegakernelMemoryError},
 * {@code CudaMegakernelFrontierExecutionPlanError}). Each family is declared beside its planner,
 * with its own variant enum that its {@link #variant()} narrows to; so this class stays open
 * ({@code non-sealed}): the planners of vyre-cuda and vyre-policy are in other modules.
 */
public abstract non-sealed class PlanException extends VyreException {

  protected PlanException(ErrorVariant variant, Map<String, Object> fields, String message) {
    super(variant, fields, message);
  }

  protected PlanException(ErrorVariant variant, Map<String, Object> fields, String message, Throwable cause) {
    super(variant, fields, message, cause);
  }
}
