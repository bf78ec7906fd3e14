package dev.vyre.runtime.wire;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.error.ProtocolException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Layout of the PRINTF debug log (docs/PROTOCOL.md, "The PRINTF debug log"): word 0 is an atomic
 * cursor counting reserved words, then 4-word records {@code [fmt_id, a, b, c]}.
 */
public final class DebugLogLayout {

  public static final int CURSOR_WORD = 0;
  public static final int RECORDS_BASE = 1;
  public static final int RECORD_WORDS = 4;
  public static final int RECORD_CAPACITY = 64;
  public static final int BUFFER_WORDS = 1 + RECORD_CAPACITY * RECORD_WORDS;
  public static final int BUFFER_BYTES = BUFFER_WORDS * 4;
  public static final int MAX_ENCODED_RECORDS = 1_048_576;

  private static final String FIX = "pass a debug log of (1 + 4 * capacity) words; read a live kernel's log,"
      + " which may have filled, with DebugLogLayout.readKept or Megakernel.debugLog, or empty it between batches with Megakernel.clearDebugLog";

  /** One PRINTF record. */
  public record DebugRecord(int fmtId, int a, int b, int c) {}

  /**
   * What a live log holds: the records the kernel kept and how many PRINTFs found it full.
   *
   * @param records the kept records, oldest first (a full log keeps the first ones)
   * @param dropped PRINTFs whose record did not fit
   */
  public record Contents(List<DebugRecord> records, long dropped) {}

  private DebugLogLayout() {}

  /** Byte length for {@code capacity} records, or -1 when it does not fit. */
  public static long byteLength(long capacity) {
    return capacity < 0 || capacity > (1L << 32) / 4 - 1 ? -1 : (1 + 4 * capacity) * 4;
  }

  /** An all-zero (empty) log of {@code capacity} records. */
  public static byte[] encodeEmpty(int capacity) {
    if (capacity < 0 || capacity > MAX_ENCODED_RECORDS) {
      throw PipelineException.invalidArgument("submission", "debug log capacity " + capacity + " exceeds the megakernel allocation cap of "
          + MAX_ENCODED_RECORDS + " records", "reduce debug-log record_capacity to the megakernel allocation cap before encoding");
    }
    return new byte[(int) byteLength(capacity)];
  }

  /** vyre's {@code try_read_debug_log}: the records below the cursor, validated. */
  public static List<DebugRecord> tryRead(MemorySegment log) {
    long len = log.byteSize();
    if (len % 4 != 0) {
      throw ProtocolException.misalignedByteLength("debug_log", len, FIX);
    }
    if (len < 4) {
      throw ProtocolException.missingWord("debug_log", CURSOR_WORD, len, FIX);
    }
    long capacityWords = len / 4 - 1;
    long cursor = Integer.toUnsignedLong(Words.get(log, CURSOR_WORD));
    // Like vyre, both a cursor past the capacity and one inside a record name the word after the cursor.
    if (cursor > capacityWords || cursor % RECORD_WORDS != 0) {
      throw ProtocolException.missingWord("debug_log", RECORDS_BASE + cursor, len, FIX);
    }
    return records(log, cursor / RECORD_WORDS);
  }

  /**
   * A live log's records, full or not. The kernel's cursor keeps counting after the log is full
   * (docs/PROTOCOL.md, "The PRINTF debug log"), which {@link #tryRead} refuses as vyre does; this
   * reads the records that fit and counts the rest as dropped. The cursor is a u32 of reserved
   * words: after 2^30 PRINTFs without a clear it wraps and the count starts again.
   *
   * @throws ProtocolException for a buffer that is not whole words, or a cursor inside a record
   */
  public static Contents readKept(MemorySegment log) {
    long len = log.byteSize();
    if (len % 4 != 0) {
      throw ProtocolException.misalignedByteLength("debug_log", len, FIX);
    }
    if (len < 4) {
      throw ProtocolException.missingWord("debug_log", CURSOR_WORD, len, FIX);
    }
    long cursor = Integer.toUnsignedLong(Words.get(log, CURSOR_WORD));
    if (cursor % RECORD_WORDS != 0) {
      throw ProtocolException.missingWord("debug_log", RECORDS_BASE + cursor, len, FIX);
    }
    long capacityRecords = (len / 4 - 1) / RECORD_WORDS;
    long reserved = cursor / RECORD_WORDS;
    long kept = Math.min(reserved, capacityRecords);
    return new Contents(records(log, kept), reserved - kept);
  }

  private static List<DebugRecord> records(MemorySegment log, long count) {
    List<DebugRecord> records = new ArrayList<>((int) count);
    for (long i = 0; i < count; i++) {
      long base = RECORDS_BASE + RECORD_WORDS * i;
      records.add(new DebugRecord(Words.get(log, base), Words.get(log, base + 1), Words.get(log, base + 2), Words.get(log, base + 3)));
    }
    return records;
  }

  /** Lenient reader: like vyre it refuses malformed input loudly rather than returning nothing. */
  public static List<DebugRecord> read(MemorySegment log) {
    return tryRead(log);
  }
}
