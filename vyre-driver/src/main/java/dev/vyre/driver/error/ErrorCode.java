package dev.vyre.driver.error;

/**
 * vyre's {@code ErrorCode}: the machine-readable class of a {@link BackendException}, for retry
 * logic, circuit breakers and alerts that must not parse messages. Each code has a stable id that
 * telemetry, alert rules and retry policies persist, so ids are append-only: a new code takes a new,
 * higher id (below {@link #Unknown}'s 1999) and an existing id is never reused or renumbered.
 * Constants are declared in id order.
 */
public enum ErrorCode {
  DeviceOutOfMemory(1001),
  UnsupportedFeature(1002),
  PoisonedLock(1003),
  KernelCompileFailed(1004),
  DispatchFailed(1005),
  /** Also the code of vyre's {@code Validation} variant. */
  InvalidProgram(1006),
  CooperativeResidencyExceeded(1007),
  DeviceLost(1008),
  /** An unclassified failure: {@code BackendError::Other}, which {@code BackendError::new} builds. */
  Unknown(1999);

  private final int stableId;

  ErrorCode(int stableId) {
    this.stableId = stableId;
  }

  /** {@code stable_id}: the persisted identifier (a u32). */
  public int stableId() {
    return stableId;
  }
}
