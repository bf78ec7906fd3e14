package dev.vyre.runtime;

/**
 * The retire thread's watchdog over one kernel: when a check is due (every {@link #CHECK_EVERY_NANOS})
 * and whether the kernel has stalled. Each check asks {@link KernelHealth#suspectedStall}, the seed's
 * {@code health_since} verdict that telemetry reports too, about the tasks in flight and what finished
 * and faulted since the previous check; a stall is a verdict that held at every check for longer than
 * the stall timeout, so one slow look never tears a kernel down. Time and counts are passed in, so the
 * decision is the same on every backend and testable without a clock.
 */
final class Watchdog {

  /** How often the retire thread asks the backend about its health and looks for a stall. */
  static final long CHECK_EVERY_NANOS = 5_000_000L;

  private final long stallTimeoutNanos;
  private long lastCheck;
  private long lastHealthy;
  private long lastFinished;
  private long lastFaults;

  Watchdog(long stallTimeoutNanos, long finished, long faults, long now) {
    this.stallTimeoutNanos = stallTimeoutNanos;
    this.lastFinished = finished;
    this.lastFaults = faults;
    this.lastHealthy = now;
    this.lastCheck = now;
  }

  /** Whether a check is due at {@code now}; if so, the next one is due a period later. */
  boolean due(long now) {
    if (now - lastCheck <= CHECK_EVERY_NANOS) {
      return false;
    }
    lastCheck = now;
    return true;
  }

  /**
   * Whether the kernel has stalled as of {@code now}: the health verdict for {@code inFlight} tasks,
   * with {@code finished} and {@code faults} (running totals; only their change counts) compared with
   * the previous check's, has suspected a stall at every check for longer than the stall timeout. An
   * empty queue is healthy: an idle kernel never stalls.
   */
  boolean stalled(long now, long finished, long faults, long inFlight) {
    boolean suspected = KernelHealth.suspectedStall(inFlight, finished - lastFinished, faults - lastFaults);
    lastFinished = finished;
    lastFaults = faults;
    if (!suspected) {
      lastHealthy = now;
      return false;
    }
    return now - lastHealthy > stallTimeoutNanos;
  }

  /** How long the verdict has suspected a stall, in milliseconds, as of {@code now}. */
  long quietMillis(long now) {
    return (now - lastHealthy) / 1_000_000;
  }
}
