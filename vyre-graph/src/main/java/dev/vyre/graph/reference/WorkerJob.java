package dev.vyre.graph.reference;

import dev.vyre.graph.frontier.FrontierRun;

/** A run that every worker of the reference engine executes together: a level-by-level traversal or Afforest. */
interface WorkerJob {

  /** Runs worker {@code id}'s part of the whole run; every worker passes the same barriers. */
  void work(int id);

  /** The run's result once every worker has finished; the first failure of any worker is rethrown instead. */
  FrontierRun result(String backend);

  /** Rethrows a worker's failure (unchecked as it is, a checked one wrapped); nothing when null. */
  static void rethrow(Throwable t) {
    if (t instanceof RuntimeException e) {
      throw e;
    }
    if (t instanceof Error e) {
      throw e;
    }
    if (t != null) {
      throw new IllegalStateException(t);
    }
  }
}
