package dev.vyre.runtime;

import java.util.concurrent.locks.LockSupport;

/** The host's adaptive wait: spin, then yield, then short parks, so a waiter does not burn a core for long. */
final class Backoff {

  private Backoff() {}

  /**
   * Waits for another thread that is already doing bounded work (a publisher ahead writing its
   * batch): spins, then yields so a descheduled one can run, but never parks, since a 50 µs park
   * behind every batch would serialize the publishers.
   */
  static void pauseBriefly(int round) {
    if (round < 256) {
      Thread.onSpinWait();
    } else {
      Thread.yield();
    }
  }

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
