package dev.vyre.runtime;

/**
 * vyre's {@code health_since} verdict, the one decision about stalls: the retire thread's
 * {@link Watchdog} tears a kernel down on it, and telemetry's {@code RingTelemetry.healthSince}
 * (checked by {@code vyre conform}) reports it. Each passes the figures it can read; the verdict is
 * the same function of them.
 */
public final class KernelHealth {

  private KernelHealth() {}

  /**
   * Whether a stall is suspected between two looks at a kernel: work is queued now, nothing
   * finished since the previous look, and nothing faulted (a fault is reported as one, not as a stall).
   *
   * @param queueDepth tasks queued or running now
   * @param doneDelta tasks finished since the previous look
   * @param faultSlots tasks faulted (telemetry: FAULT slots now; the watchdog: faults since the previous look)
   */
  public static boolean suspectedStall(long queueDepth, long doneDelta, long faultSlots) {
    return queueDepth > 0 && doneDelta == 0 && faultSlots == 0;
  }
}
