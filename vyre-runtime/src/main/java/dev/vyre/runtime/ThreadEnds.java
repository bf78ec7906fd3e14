package dev.vyre.runtime;

/** Waiting for threads a component owns to end, as its close must. */
public final class ThreadEnds {

  private ThreadEnds() {}

  /**
   * Waits until every one of {@code threads} has ended. An interrupt does not cut the wait short
   * (a close that returned early would leave its thread running on what the caller frees next); it
   * is kept for the caller.
   */
  public static void await(Thread... threads) {
    boolean interrupted = false;
    for (Thread thread : threads) {
      while (thread.isAlive()) {
        try {
          thread.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
