package dev.vyre.driver.error;

import java.util.Map;

/**
 * A running megakernel failed: it stopped making progress (caught by the host watchdog), the
 * device reported a fault, or it was shut down while the caller still waited. Carries a textual
 * summary of the last telemetry snapshot so the failure can be diagnosed after the kernel is gone,
 * and an {@link ErrorCode} for retry logic: {@link ErrorCode#DeviceLost} when the fault left the
 * device unusable in this process (a CUDA kernel's fault is sticky to its context).
 */
public final class KernelException extends VyreException {

  /** How the kernel failed. */
  public enum Variant implements ErrorVariant {
    /** No progress for the stall timeout with work in flight (the host watchdog). */
    Stalled,
    /** The device reported a fault; {@link KernelException#code()} says whether the device is lost. */
    DeviceFault,
    /** The host wrote something the ring protocol forbids. */
    ProtocolViolation,
    /** The kernel was shut down. */
    Closed
  }

  private final String lastSnapshot;
  private final ErrorCode code;

  private KernelException(Variant variant, Map<String, Object> fields, String message, String lastSnapshot, Throwable cause,
      ErrorCode code) {
    super(variant, fields, message, cause);
    this.lastSnapshot = lastSnapshot;
    this.code = code;
  }

  private KernelException(Variant variant, Map<String, Object> fields, String message, String lastSnapshot, Throwable cause) {
    this(variant, fields, message, lastSnapshot, cause, ErrorCode.Unknown);
  }

  /** The machine-readable class of the failure: DeviceLost, or Unknown. */
  public ErrorCode code() {
    return code;
  }

  /** How a caller may recover: {@link RetryClass#NewDevice} after a device loss, else {@link RetryClass#Never}. */
  public RetryClass retryClass() {
    return RetryClass.of(code);
  }

  @Override
  public Variant variant() {
    return (Variant) super.variant();
  }

  @Override
  public String errorType() {
    return "KernelError";
  }

  /** The last control-block summary taken before the failure, or an empty string. */
  public String lastSnapshot() {
    return lastSnapshot;
  }

  public static KernelException stalled(String backend, long stalledMillis, long inFlight, String snapshot) {
    return new KernelException(Variant.Stalled,
        fieldMap("backend", backend, "stalled_ms", stalledMillis, "in_flight", inFlight),
        backend + " megakernel made no progress for " + stalledMillis + " ms with " + inFlight
            + " task(s) in flight; the kernel was torn down. Last snapshot: " + snapshot
            + ". Fix: look for a handler that never returns or a tenant whose mask was revoked, then bootstrap a new Megakernel.",
        snapshot, null);
  }

  /** The kernel faulted but the device is still usable: bootstrap a new Megakernel. */
  public static KernelException deviceFault(String backend, String detail, String snapshot, Throwable cause) {
    return new KernelException(Variant.DeviceFault, fieldMap("backend", backend, "detail", detail),
        backend + " megakernel faulted: " + detail + ". Last snapshot: " + snapshot
            + ". Fix: check the failing opcode's handler (run it on the reference backend to compare), then bootstrap a new Megakernel.",
        snapshot, cause);
  }

  /**
   * The kernel faulted and took the device with it for this process (a sticky CUDA error):
   * {@link ErrorCode#DeviceLost}, whose retry class asks for a new device or process.
   */
  public static KernelException deviceLost(String backend, String detail, String snapshot) {
    return new KernelException(Variant.DeviceFault, fieldMap("backend", backend, "detail", detail),
        backend + " megakernel faulted: " + detail + "; the error is sticky, so this process cannot use the device again."
            + " Last snapshot: " + snapshot + ". Fix: check the failing opcode's handler (run it on the reference backend to"
            + " compare), then retry in a new process or on another device.",
        snapshot, null, ErrorCode.DeviceLost);
  }

  /** The host wrote something a kernel must not run (the reference backend checks what a GPU cannot). */
  public static KernelException protocolViolation(String backend, String detail) {
    return new KernelException(Variant.ProtocolViolation, fieldMap("backend", backend, "detail", detail),
        backend + " megakernel stopped: the host broke the ring protocol: " + detail
            + ". Fix: publish only through Megakernel, which writes each ring slot and its express copy together; if you did, report this as a vyre bug with this message.",
        "", null);
  }

  public static KernelException closed(String backend) {
    return new KernelException(Variant.Closed, fieldMap("backend", backend),
        backend + " megakernel is shut down. Fix: bootstrap a new Megakernel before publishing.", "", null);
  }
}
