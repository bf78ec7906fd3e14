package dev.vyre.graph.frontier;

import dev.vyre.runtime.spi.Availability;

/**
 * A backend that runs frontier engines, found through {@link java.util.ServiceLoader}: {@code
 * reference} (Java threads) is always present; {@code cuda} when its module is on the class path.
 */
public interface FrontierBackend {

  /** The name used by {@code --backend}. */
  String name();

  /** Higher wins when {@code auto} chooses among usable backends. */
  int precedence();

  /** Probes the machine; never throws. */
  Availability availability();

  /** Starts an engine: threads, or a context and the compiled kernels. */
  FrontierEngine open();
}
