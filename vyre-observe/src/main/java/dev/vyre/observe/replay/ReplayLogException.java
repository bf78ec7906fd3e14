package dev.vyre.observe.replay;

import dev.vyre.driver.error.ErrorVariant;
import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.ErrorCode;
import java.io.IOException;
import java.util.Map;

/**
 * vyre's {@code ReplayLogError}: a file operation failed, the file is not a replay log, or a
 * capacity is zero or too large. {@code Truncated}, {@code Corrupt} and {@code Exists} are ours:
 * vyre finds a short file only when a read fails mid-replay and has no checksums to find damage
 * with. Display texts start as vyre's and add what was found. vyre converts these errors to a
 * backend error message, so they carry {@link ErrorCode#Unknown}.
 */
public final class ReplayLogException extends BackendException {

  /** This family's variants. */
  public enum Variant implements ErrorVariant {
    Io,
    HeaderMismatch,
    ZeroCapacity,
    CapacityOverflow,
    Truncated,
    /** A header or record whose checksum, magic or sequence number is wrong: damaged after it was written. */
    Corrupt,
    /** A new log was asked for where a file with something in it already is. */
    Exists
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

  /** An append could not be written, a full disk say: the records before it stay readable. */
  static ReplayLogException appendFailed(String path, long index, long offset, IOException cause) {
    return new ReplayLogException(Variant.Io, fieldMap("op", "append", "path", path, "index", index, "offset", offset),
        "replay log append on `" + path + "` failed at record " + index + " (byte " + offset + "): " + cause
            + "; the records written before it are intact. Fix: free disk space (or raise the file size limit) and record"
            + " again; `vyre replay` reads the intact records, a torn last one is reported and skipped.", cause);
  }

  static ReplayLogException truncated(String path, long byteLen, long expected) {
    return new ReplayLogException(Variant.Truncated, fieldMap("path", path, "byte_len", byteLen, "expected", expected),
        "replay log `" + path + "` is " + byteLen + " bytes but needs " + expected
            + ": it was cut short or extended, and records may be missing. Fix: keep a copy for inspection and start a new"
            + " log.", null);
  }

  static ReplayLogException headerCutShort(String path, long byteLen) {
    return new ReplayLogException(Variant.Truncated,
        fieldMap("path", path, "byte_len", byteLen, "expected", (long) ReplayLogFormat.HEADER_BYTES),
        "replay log `" + path + "` is " + byteLen + " bytes, less than its " + ReplayLogFormat.HEADER_BYTES
            + "-byte header, so it holds no record: the process writing it died as it created the file, or the file was"
            + " cut short. Fix: record the run again.", null);
  }

  /** The header is damaged: without its capacity no record can be placed, so nothing is salvaged. */
  static ReplayLogException corruptHeader(String path, String problem) {
    return new ReplayLogException(Variant.Corrupt, fieldMap("path", path, "index", -1L, "offset", 0L, "problem", problem),
        "replay log `" + path + "` header (bytes 0.." + ReplayLogFormat.HEADER_BYTES + ") is damaged: " + problem
            + ". Fix: restore the log from a copy, or record the run again; without its header no record can be read.", null);
  }

  /** Record {@code index} is damaged; {@code more} other damaged records were found besides. */
  static ReplayLogException corruptRecord(String path, DamagedRecord damage, int more) {
    return new ReplayLogException(Variant.Corrupt,
        fieldMap("path", path, "index", damage.index(), "offset", damage.offset(), "problem", damage.problem()),
        "replay log `" + path + "` record " + damage.index() + " (byte " + damage.offset() + ") is damaged: " + damage.problem()
            + (more > 0 ? "; " + more + " more damaged after it" : "") + ". Fix: `vyre replay --salvage " + path
            + "` prints the intact records and names each damaged one (RingLog.salvage); record the run again for a whole log.",
        null);
  }

  static ReplayLogException exists(String path, long byteLen) {
    return new ReplayLogException(Variant.Exists, fieldMap("path", path, "byte_len", byteLen),
        "replay log `" + path + "` already exists (" + byteLen + " bytes), and a new log never replaces one. Fix: move or"
            + " delete the old file first, or choose another path.", null);
  }
}
