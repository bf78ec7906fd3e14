package dev.vyre.driver.error;

import java.util.Map;

/**
 * A GPU API call failed: a CUDA driver {@code CUresult} or an {@code nvrtcResult} other than
 * success, or the library itself could not be loaded. Carries the API, the call, the numeric code
 * and its name so that an operator can look it up.
 */
public final class DeviceException extends VyreException {

  /** Which GPU API failure this is. */
  public enum Variant implements ErrorVariant {
    /** A call returned a non-success code. */
    CallFailed,
    /** The native library or one of its symbols is missing. */
    Unavailable
  }

  private final int code;

  private DeviceException(Variant variant, Map<String, Object> fields, int code, String message, Throwable cause) {
    super(variant, fields, message, cause);
    this.code = code;
  }

  @Override
  public Variant variant() {
    return (Variant) super.variant();
  }

  @Override
  public String errorType() {
    return "DeviceError";
  }

  public int code() {
    return code;
  }

  /** A call returned a non-success code. */
  public static DeviceException callFailed(String api, String call, int code, String codeName, String detail, String fix) {
    return new DeviceException(Variant.CallFailed,
        fieldMap("api", api, "call", call, "code", (long) code, "code_name", codeName), code,
        api + " " + call + " failed with " + codeName + " (" + code + ")"
            + (detail == null || detail.isBlank() ? "" : ": " + detail) + ". Fix: " + fix, null);
  }

  /** The native library or one of its symbols is missing. */
  public static DeviceException unavailable(String api, String why, String fix, Throwable cause) {
    return new DeviceException(Variant.Unavailable, fieldMap("api", api, "why", why), -1,
        api + " is unavailable: " + why + ". Fix: " + fix, cause);
  }
}
