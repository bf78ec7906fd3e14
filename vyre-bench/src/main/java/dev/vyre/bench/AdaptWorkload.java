package dev.vyre.bench;

import dev.vyre.runtime.Megakernel;
import java.util.Map;

/**
 * One load of {@code vyre bench adapt}: phases whose right number of worker groups differs, run on
 * a kernel of its own with each configuration in turn ({@link AdaptBench}).
 */
interface AdaptWorkload extends AutoCloseable {

  /** One run of every phase: its measures (name to value, in print order) and its wall time. */
  record Pass(Map<String, Double> measures, double seconds) {}

  /** The prefix of its result keys and lines. */
  String name();

  /** Starts the kernel the load runs on. */
  Megakernel boot();

  /** Why the load cannot run on {@code kernel}'s backend (a feature it needs is not built there), or null. */
  default String unavailableOn(Megakernel kernel) {
    return null;
  }

  /** Runs the phases once, untimed, so the JIT compiles their paths first. */
  void warmUp(Megakernel kernel) throws InterruptedException;

  /** Runs every phase once. */
  Pass run(Megakernel kernel) throws InterruptedException;

  /**
   * Runs every phase once in the adaptive configuration ({@code adaptive}) or a fixed one: for a load
   * whose work itself asks the policy (a resident scan at its start), not only the loops beside it.
   */
  default Pass run(Megakernel kernel, boolean adaptive) throws InterruptedException {
    return run(kernel);
  }

  /** One measure as the table prints it. */
  String describe(String measure, double value);

  /** Closes what the load opened on its kernel (a scan job), before the kernel closes. */
  default void detach() {}

  /** Frees what the load holds beyond its kernel (a corpus file). */
  @Override
  default void close() {}
}
