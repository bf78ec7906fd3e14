package dev.vyre.runtime;

/**
 * The retire thread's watchdog over one kernel: when a check is due (every {@link #CHECK_EVERY_NANOS})
 * and whether the kernel has stalled, meaning tickets have waited for longer than the stall
 * timeout while nothing was claimed or retired. Time and counts are passed in, so the decision is
 * the same on every backend and testable without a clock.
 */
final class Watchdog {

  /** How often the retire thread asks the backend about its health and looks for a stall. */
  static final long CHECK_EVERY_NANOS = 5_000_000L;

  private final long stallTimeoutNanos;
  private long lastCheck;
  private long lastProgress;
  private long lastClaims;

  Watchdog(long stallTimeoutNanos, long claims, long now) {
    this.stallTimeoutNanos = stallTimeoutNanos;
    this.lastClaims = claims;
    this.lastProgress = now;
    this.lastCheck = now;
  }

  /** Something retired at {@code now}. */
  void progress(long now) {
    lastProgress = now;
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
   * Whether the kernel has stalled as of {@code now}: tickets wait ({@code backlog}) and the
   * claim total (claims plus DONE_COUNT, which any claim or finish moves) has not changed for
   * longer than the stall timeout. An empty backlog counts as progress: an idle kernel never stalls.
   */
  boolean stalled(long now, long claims, boolean backlog) {
    if (claims != lastClaims || !backlog) {
      lastClaims = claims;
      lastProgress = now;
      return false;
    }
    return now - lastProgress > stallTimeoutNanos;
  }

  /** How long nothing has moved, in milliseconds, as of {@code now}. */
  long quietMillis(long now) {
    return (now - lastProgress) / 1_000_000;
  }
}
