package dev.vyre.cli.conform;

/**
 * A group of {@code vyre conform} functions, found through {@link java.util.ServiceLoader} so
 * that each exact port (policy, telemetry, planners) registers its own functions.
 */
public interface ConformModule {

  /** Adds this module's functions, keyed by the {@code "fn"} name of docs/CONFORMANCE.md. */
  void register(ConformRegistry registry);
}
