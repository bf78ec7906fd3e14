package dev.vyre.runtime;

import java.util.concurrent.locks.LockSupport;

/** The host's adaptive wait: spin, then yield, then short parks, so a waiter does not burn a core for long. */
final class Backoff {

  private Backoff() {}

  /** Waits a little; {@code round} counts the waits so far. */
  static void pause(int round) {
    if (round < 128) {
      Thread.onSpinWait();
    } else if (round < 256) {
      Thread.yield();
    } else {
      LockSupport.parkNanos(Math.min(50_000L << Math.min(round - 256, 4), 500_000L));
    }
  }
}
