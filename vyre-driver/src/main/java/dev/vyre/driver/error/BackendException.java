package dev.vyre.driver.error;

import java.util.Map;

/**
 * Policy and planner errors reported as vyre's {@code BackendError}: a plain message
 * ({@code Other}) or a device-memory budget that a plan would exceed ({@code DeviceOutOfMemory}).
 * Open ({@code non-sealed}) so that other modules can add families with their own variant enums
 * and structured fields (tenants, replay logs); each variant declares its {@link ErrorCode}, as
 * vyre's exhaustive {@code BackendError::code} does.
 */
public non-sealed class BackendException extends VyreException {

  /**
   * This class's own variants. A subclass declares its own enum and narrows {@link #variant()} to
   * it, so here {@code variant()} returns any {@link ErrorVariant}.
   */
  public enum Variant implements ErrorVariant {
    /** A plain message: {@code BackendError::new}. */
    Other,
    /** A plan or request needs more device memory than is available. */
    DeviceOutOfMemory
  }

  private final ErrorCode code;

  protected BackendException(ErrorCode code, ErrorVariant variant, Map<String, Object> fields, String message) {
    this(code, variant, fields, message, null);
  }

  /** A variant that wraps the lower-level failure behind it (an {@code IOException}, say). */
  protected BackendException(ErrorCode code, ErrorVariant variant, Map<String, Object> fields, String message, Throwable cause) {
    super(variant, fields, message, cause);
    this.code = code;
  }

  @Override
  public String errorType() {
    return "BackendError";
  }

  /** {@code BackendError::code}: the machine-readable class of this error. */
  public ErrorCode code() {
    return code;
  }

  /** {@code BackendError::new(msg)}: the message is the display text and is carried as {@code message}. */
  public static BackendException other(String message) {
    return new BackendException(ErrorCode.Unknown, Variant.Other, fieldMap("message", message), message);
  }

  /** The requested device bytes exceed what is available; display text verbatim from vyre. */
  public static BackendException deviceOutOfMemory(long requested, long available) {
    return new BackendException(ErrorCode.DeviceOutOfMemory, Variant.DeviceOutOfMemory,
        fieldMap("requested", requested, "available", available),
        "device out of memory: requested " + Long.toUnsignedString(requested) + " bytes, "
            + Long.toUnsignedString(available) + " available.          Fix: reduce buffer sizes or split "
            + "the dispatch into smaller chunks.");
  }
}
