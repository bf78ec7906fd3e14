package dev.vyre.observe.replay;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Layout of vyre's replay file {@code VRRL0001} (docs/PROTOCOL.md, "Replay log", byte-identical): a
 * 32-byte header, then {@code capacity} records of 64 bytes used as a circular log. All fields are
 * little-endian; record {@code k} starts at byte {@code 32 + 64k}. vyre's comment says the header
 * is aligned to 4 KiB; it is not, and neither is this one (quirk 13).
 *
 * <pre>
 * header   0..8  magic "VRRL0001"      records  0..4   magic 0xDEADBEEF (0 = never written)
 *          8..12 version u32 = 1                4..12  timestamp_ns u64
 *         12..16 flags u32 = 0                 12..16  slot_idx   16..20 tenant_id   20..24 opcode
 *         16..24 capacity u64                  24..40  args[0..4]  40..44 epoch
 *         24..32 next_slot u64 (cursor)        44..48  slot_status  48..52 failure_class
 *                                              52..56  backend error code  56..64 output_digest u64
 * </pre>
 *
 * The last four record fields are the failure evidence: all zero when there is none.
 */
public final class ReplayLogFormat {

  public static final byte[] MAGIC = "VRRL0001".getBytes(StandardCharsets.US_ASCII);
  public static final int VERSION = 1;
  public static final int HEADER_BYTES = 32;
  public static final int MAGIC_OFFSET = 0;
  public static final int VERSION_OFFSET = 8;
  public static final int FLAGS_OFFSET = 12;
  public static final int CAPACITY_OFFSET = 16;
  public static final int CURSOR_OFFSET = 24;

  public static final int RECORD_BYTES = 64;
  /** A record's sync marker; a record whose first word is 0 was never written. */
  public static final int RECORD_MAGIC = 0xDEAD_BEEF;
  public static final int RECORD_MAGIC_OFFSET = 0;
  public static final int TIMESTAMP_OFFSET = 4;
  public static final int SLOT_IDX_OFFSET = 12;
  public static final int TENANT_ID_OFFSET = 16;
  public static final int OPCODE_OFFSET = 20;
  public static final int ARGS_OFFSET = 24;
  /** Argument words a record keeps (the first four of a slot's twelve). */
  public static final int RECORDED_ARGS = 4;
  public static final int EPOCH_OFFSET = 40;
  public static final int SLOT_STATUS_OFFSET = 44;
  public static final int FAILURE_CLASS_OFFSET = 48;
  public static final int BACKEND_CODE_OFFSET = 52;
  public static final int OUTPUT_DIGEST_OFFSET = 56;

  /** The most records a log may hold: a malformed header cannot make a reader allocate more. */
  public static final long MAX_REPLAY_RECORDS = 1_048_576;

  private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  private ReplayLogFormat() {}

  /** Byte offset of record {@code index}. */
  public static long recordOffset(long index) {
    return HEADER_BYTES + index * RECORD_BYTES;
  }

  /** The file length of a log of {@code capacity} records (a valid capacity; see {@link #checkCapacity}). */
  public static long fileLength(long capacity) {
    return recordOffset(capacity);
  }

  /**
   * Refuses a capacity a log may not have: {@code ZeroCapacity}, or {@code CapacityOverflow} above
   * {@link #MAX_REPLAY_RECORDS} (u64, so a header's value is checked as written).
   */
  public static void checkCapacity(long capacity) {
    if (capacity == 0) {
      throw ReplayLogException.zeroCapacity();
    }
    if (Long.compareUnsigned(capacity, MAX_REPLAY_RECORDS) > 0) {
      throw ReplayLogException.capacityOverflow(capacity, MAX_REPLAY_RECORDS);
    }
  }

  // ---------------------------------------------------------------- header

  /** Writes a header: magic, version 1, flags 0, capacity, cursor. */
  public static void writeHeader(MemorySegment header, long capacity, long cursor) {
    MemorySegment.copy(MemorySegment.ofArray(MAGIC), 0, header, MAGIC_OFFSET, MAGIC.length);
    header.set(U32, VERSION_OFFSET, VERSION);
    header.set(U32, FLAGS_OFFSET, 0);
    header.set(U64, CAPACITY_OFFSET, capacity);
    header.set(U64, CURSOR_OFFSET, cursor);
  }

  /** Whether the header's magic and version are vyre's {@code VRRL0001}, version 1. */
  public static boolean isKnownHeader(MemorySegment header) {
    return header.asSlice(MAGIC_OFFSET, MAGIC.length).mismatch(MemorySegment.ofArray(MAGIC)) < 0
        && version(header) == VERSION;
  }

  public static int version(MemorySegment header) {
    return header.get(U32, VERSION_OFFSET);
  }

  public static long capacity(MemorySegment header) {
    return header.get(U64, CAPACITY_OFFSET);
  }

  public static long cursor(MemorySegment header) {
    return header.get(U64, CURSOR_OFFSET);
  }

  /** Stores the cursor into an 8-byte buffer, the bytes written at {@link #CURSOR_OFFSET}. */
  public static void writeCursor(MemorySegment cursorBytes, long cursor) {
    cursorBytes.set(U64, 0, cursor);
  }

  // ---------------------------------------------------------------- records

  /** Writes a whole record: the magic, the slot, and the failure evidence or zeros. */
  public static void writeRecord(MemorySegment record, RecordedSlot slot, ReplayFailureEvidence failure) {
    record.set(U32, RECORD_MAGIC_OFFSET, RECORD_MAGIC);
    record.set(U64, TIMESTAMP_OFFSET, slot.timestampNs());
    record.set(U32, SLOT_IDX_OFFSET, slot.slotIdx());
    record.set(U32, TENANT_ID_OFFSET, slot.tenantId());
    record.set(U32, OPCODE_OFFSET, slot.opcode());
    record.set(U32, ARGS_OFFSET, slot.arg0());
    record.set(U32, ARGS_OFFSET + 4, slot.arg1());
    record.set(U32, ARGS_OFFSET + 8, slot.arg2());
    record.set(U32, ARGS_OFFSET + 12, slot.arg3());
    record.set(U32, EPOCH_OFFSET, slot.epoch());
    boolean evidence = failure != null;
    record.set(U32, SLOT_STATUS_OFFSET, evidence ? failure.slotStatus() : 0);
    record.set(U32, FAILURE_CLASS_OFFSET, evidence ? failure.failureClass().code() : 0);
    record.set(U32, BACKEND_CODE_OFFSET, evidence ? failure.backendErrorCode() : 0);
    record.set(U64, OUTPUT_DIGEST_OFFSET, evidence ? failure.outputDigest() : 0);
  }

  /** The record's magic word: {@link #RECORD_MAGIC}, 0 for a record never written, anything else is corrupt. */
  public static int recordMagic(MemorySegment record) {
    return record.get(U32, RECORD_MAGIC_OFFSET);
  }

  /** Decodes a record whose magic is {@link #RECORD_MAGIC}; failure evidence iff any of its four fields is non-zero. */
  public static ReplayRecord readRecord(MemorySegment record) {
    RecordedSlot slot = new RecordedSlot(record.get(U64, TIMESTAMP_OFFSET), record.get(U32, SLOT_IDX_OFFSET),
        record.get(U32, TENANT_ID_OFFSET), record.get(U32, OPCODE_OFFSET), record.get(U32, ARGS_OFFSET),
        record.get(U32, ARGS_OFFSET + 4), record.get(U32, ARGS_OFFSET + 8), record.get(U32, ARGS_OFFSET + 12),
        record.get(U32, EPOCH_OFFSET));
    int slotStatus = record.get(U32, SLOT_STATUS_OFFSET);
    int failureClass = record.get(U32, FAILURE_CLASS_OFFSET);
    int backendCode = record.get(U32, BACKEND_CODE_OFFSET);
    long digest = record.get(U64, OUTPUT_DIGEST_OFFSET);
    boolean evidence = slotStatus != 0 || failureClass != 0 || backendCode != 0 || digest != 0;
    return new ReplayRecord(slot, evidence
        ? new ReplayFailureEvidence(slotStatus, ReplayFailureClass.decode(failureClass), backendCode, digest) : null);
  }

  /** vyre's {@code output_digest}: the first 8 bytes of BLAKE3(output), read as a little-endian u64. */
  public static long outputDigest(byte[] output) {
    return MemorySegment.ofArray(Blake3.hash(output)).get(U64, 0);
  }
}
