package dev.vyre.observe.replay;

import dev.vyre.driver.error.ErrorVariant;
import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.ErrorCode;
import java.io.IOException;
import java.util.Map;

/**
 * vyre's {@code ReplayLogError}: a file operation failed, the file is not a {@code VRRL0001} log or
 * a record in it is damaged, or a capacity is zero or too large. {@code Truncated} is ours: vyre
 * finds a short file only when a read fails mid-replay, this log refuses it when it opens. Display
 * texts start as vyre's and add what was found. vyre converts these errors to a backend error
 * message, so they carry {@link ErrorCode#Unknown}.
 */
public final class ReplayLogException extends BackendException {

  /** This family's variants. */
  public enum Variant implements ErrorVariant {
    Io,
    HeaderMismatch,
    ZeroCapacity,
    CapacityOverflow,
    Truncated
  }

  private ReplayLogException(Variant variant, Map<String, Object> fields, String message, Throwable cause) {
    super(ErrorCode.Unknown, variant, fields, message, cause);
  }

  @Override
  public Variant variant() {
    return (Variant) super.variant();
  }

  @Override
  public String errorType() {
    return "ReplayLogError";
  }

  static ReplayLogException io(String op, String path, IOException cause) {
    return new ReplayLogException(Variant.Io, fieldMap("op", op, "path", path),
        "replay log " + op + " on `" + path + "` failed: " + cause + ". Fix: check disk space + permissions.", cause);
  }

  static ReplayLogException headerMismatch(String path, String found) {
    return new ReplayLogException(Variant.HeaderMismatch, fieldMap("path", path, "found", found),
        "replay log `" + path + "` header mismatch: " + found + ". Fix: regenerate the log; VRRL format may have changed.", null);
  }

  static ReplayLogException zeroCapacity() {
    return new ReplayLogException(Variant.ZeroCapacity, fieldMap(),
        "replay log capacity must be > 0. Fix: construct with at least one slot.", null);
  }

  static ReplayLogException capacityOverflow(long count, long max) {
    return new ReplayLogException(Variant.CapacityOverflow, fieldMap("count", count, "max", max),
        "replay log capacity " + Long.toUnsignedString(count) + " exceeds max " + max + ". Fix: shard replay into smaller logs.", null);
  }

  static ReplayLogException truncated(String path, long byteLen, long expected) {
    return new ReplayLogException(Variant.Truncated, fieldMap("path", path, "byte_len", byteLen, "expected", expected),
        "replay log `" + path + "` is " + byteLen + " bytes but needs " + expected
            + " (a 32-byte header and 64 bytes per record of its capacity): it was cut short or extended, and records may be missing. Fix: keep a copy for"
            + " inspection and start a new log; a VRRL0001 file always has exactly 32 + 64 * capacity bytes.", null);
  }
}
