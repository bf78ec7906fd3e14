package dev.vyre.graph.frontier;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.planner.MegakernelExecutionTopology;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How to run a traversal.
 *
 * @param forcedTopology every level runs with this topology instead of the selector's (tests and
 *     benchmarks); the decision's metrics are still the measured ones
 * @param memoryBudgetBytes the byte budget the memory plan must fit (default: the device's free
 *     memory on CUDA, the heap's free memory on the reference backend)
 * @param launchPerLevel the per-level-launch baseline: one kernel launch and a synchronize per
 *     level, driven from the host (CUDA only), instead of levels advancing on the device
 */
public record FrontierOptions(Optional<MegakernelExecutionTopology> forcedTopology, OptionalLong memoryBudgetBytes,
    boolean launchPerLevel) {

  public FrontierOptions {
    if (memoryBudgetBytes.isPresent() && memoryBudgetBytes.getAsLong() <= 0) {
      throw InputException.of("memory budget", memoryBudgetBytes.getAsLong() + " bytes",
          "give a positive number of bytes");
    }
  }

  /** The selector decides each level; the budget is the backend's default; levels advance on the device. */
  public static FrontierOptions defaults() {
    return new FrontierOptions(Optional.empty(), OptionalLong.empty(), false);
  }

  /** These options with every level forced to {@code topology}. */
  public FrontierOptions forcing(MegakernelExecutionTopology topology) {
    return new FrontierOptions(Optional.of(topology), memoryBudgetBytes, launchPerLevel);
  }

  /** These options with another memory budget. */
  public FrontierOptions withMemoryBudget(long bytes) {
    return new FrontierOptions(forcedTopology, OptionalLong.of(bytes), launchPerLevel);
  }

  /** These options as the per-level-launch baseline. */
  public FrontierOptions launchingPerLevel() {
    return new FrontierOptions(forcedTopology, memoryBudgetBytes, true);
  }
}
