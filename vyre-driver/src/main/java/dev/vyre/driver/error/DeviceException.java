package dev.vyre.driver.error;

import java.util.Map;

/**
 * A GPU API call failed: a CUDA driver {@code CUresult} or an {@code nvrtcResult} other than
 * success, or the library itself could not be loaded. Carries the API, the call, the numeric code
 * and its name so that an operator can look it up.
 */
public final class DeviceException extends VyreException {

  private final int code;

  private DeviceException(String variant, Map<String, Object> fields, int code, String message, Throwable cause) {
    super(variant, fields, message, cause);
    this.code = code;
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
    return new DeviceException("CallFailed",
        fieldMap("api", api, "call", call, "code", (long) code, "code_name", codeName), code,
        api + " " + call + " failed with " + codeName + " (" + code + ")"
            + (detail == null || detail.isBlank() ? "" : ": " + detail) + ". Fix: " + fix, null);
  }

  /** The native library or one of its symbols is missing. */
  public static DeviceException unavailable(String api, String why, String fix, Throwable cause) {
    return new DeviceException("Unavailable", fieldMap("api", api, "why", why), -1,
        api + " is unavailable: " + why + ". Fix: " + fix, cause);
  }
}
