package dev.vyre.driver.error;

/**
 * How a caller may recover from a {@link BackendException}: vyre's {@code RetryClass} as
 * {@code classify_backend_error} ({@code vyre-runtime/src/recovery.rs}) assigns it, from the
 * error's {@link ErrorCode} and never from its message.
 */
public enum RetryClass {
  /** Retrying cannot help: the request, program or backend must change. */
  Never,
  /** Retry on the same device (memory or a lock may free up). */
  SameDevice,
  /** The device generation is gone: reacquire the device and rematerialize before retrying. */
  NewDevice;

  /** {@code classify_backend_error}: device loss needs a new device; OOM and a poisoned lock may retry in place. */
  public static RetryClass of(ErrorCode code) {
    return switch (code) {
      case DeviceLost -> NewDevice;
      case DeviceOutOfMemory, PoisonedLock -> SameDevice;
      case UnsupportedFeature, KernelCompileFailed, DispatchFailed, InvalidProgram, CooperativeResidencyExceeded,
          Unknown -> Never;
    };
  }
}
