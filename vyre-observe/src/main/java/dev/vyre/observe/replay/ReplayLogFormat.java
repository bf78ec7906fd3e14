package dev.vyre.observe.replay;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * Layout of the replay log (docs/PROTOCOL.md, "Replay log"), in its two versions: vyre's
 * {@code VRRL0001}, byte-identical, which is read, and our {@code VRRL0002}, which is written and
 * read. Both are a 32-byte header, then fixed-size records used as a circular log of
 * {@code capacity}; record {@code k} starts at byte {@code 32 + recordBytes * k}. All fields are
 * little-endian. vyre's comment says the header is aligned to 4 KiB; it is not, and neither is this
 * one (quirk 13).
 *
 * <pre>
 * header    0..8  magic "VRRL0001" | "VRRL0002"     records  0..4   magic 0xDEADBEEF
 *           8..12 version u32 = 1 | 2                        4..12  timestamp_ns u64
 *          12..16 flags u32 = 0                             12..16  slot_idx   16..20 tenant_id   20..24 opcode
 *          16..24 capacity u64                              24..40  args[0..4]  40..44 epoch
 * VRRL0001 24..32 next_slot u64 (cursor)                    44..48  slot_status  48..52 failure_class
 * VRRL0002 24..28 reserved 0                                52..56  backend error code  56..64 output_digest u64
 *          28..32 CRC32C of bytes 0..28           VRRL0002  64..72  sequence u64 (the append's number, from 0)
 *                                                           72..76  reserved 0  76..80 CRC32C of bytes 0..76
 * </pre>
 *
 * The record fields 44..64 are the failure evidence: all zero when there is none. A VRRL0001 file
 * is written at its full length up front, so a record whose magic is 0 was never written; a
 * VRRL0002 file grows by one whole record per append until it holds {@code capacity}, then record
 * {@code sequence % capacity} is overwritten, so every record in it was written and the sequence
 * numbers say which is the oldest.
 */
public final class ReplayLogFormat {

  public static final int HEADER_BYTES = 32;
  public static final int MAGIC_OFFSET = 0;
  public static final int MAGIC_BYTES = 8;
  public static final int VERSION_OFFSET = 8;
  public static final int FLAGS_OFFSET = 12;
  public static final int CAPACITY_OFFSET = 16;
  /** VRRL0001 only: the record the next append writes. */
  public static final int CURSOR_OFFSET = 24;
  /** VRRL0002 only: zero, where VRRL0001 has the cursor's low half. */
  public static final int HEADER_RESERVED_OFFSET = 24;
  /** VRRL0002 only: the header's checksum, over the bytes before it. */
  public static final int HEADER_CHECKSUM_OFFSET = 28;

  /** A VRRL0001 record: vyre's 64 bytes, which are also the first 64 bytes of a VRRL0002 record. */
  public static final int RECORD_BYTES_VRRL0001 = 64;
  /** A VRRL0002 record. */
  public static final int RECORD_BYTES = 80;
  /** A record's sync marker; in VRRL0001, a record whose first word is 0 was never written. */
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
  /** VRRL0002 only: how many appends came before this one; it is written at record {@code sequence % capacity}. */
  public static final int SEQUENCE_OFFSET = 64;
  public static final int RECORD_RESERVED_OFFSET = 72;
  /** VRRL0002 only: the record's checksum, over the bytes before it. */
  public static final int RECORD_CHECKSUM_OFFSET = 76;

  /** The most records a log may hold: a malformed header cannot make a reader allocate more. */
  public static final long MAX_REPLAY_RECORDS = 1_048_576;

  /** The two layouts a log file may have. */
  public enum Version {
    /** vyre's: no checksums, written at full length up front, the cursor in the header. */
    VRRL0001(1, RECORD_BYTES_VRRL0001),
    /** Ours: a checksum in the header and in every record, grown one whole record per append. */
    VRRL0002(2, RECORD_BYTES);

    private final int number;
    private final int recordBytes;

    Version(int number, int recordBytes) {
      this.number = number;
      this.recordBytes = recordBytes;
    }

    /** The header's version word. */
    public int number() {
      return number;
    }

    public int recordBytes() {
      return recordBytes;
    }

    /** The first eight bytes of the file: the version's name. */
    public byte[] magic() {
      return name().getBytes(StandardCharsets.US_ASCII);
    }

    /** Byte offset of record {@code index}. */
    public long recordOffset(long index) {
      return HEADER_BYTES + index * recordBytes;
    }

    /** The length of a file holding all {@code capacity} records (a valid capacity; see {@link #checkCapacity}). */
    public long fileLength(long capacity) {
      return recordOffset(capacity);
    }
  }

  /** The version {@code vyre run --record} writes. */
  public static final Version WRITTEN = Version.VRRL0002;

  private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  private ReplayLogFormat() {}

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

  /** Writes a VRRL0002 header: magic, version 2, flags 0, capacity, reserved 0, checksum. */
  public static void writeHeader(MemorySegment header, long capacity) {
    MemorySegment.copy(MemorySegment.ofArray(WRITTEN.magic()), 0, header, MAGIC_OFFSET, MAGIC_BYTES);
    header.set(U32, VERSION_OFFSET, WRITTEN.number());
    header.set(U32, FLAGS_OFFSET, 0);
    header.set(U64, CAPACITY_OFFSET, capacity);
    header.set(U32, HEADER_RESERVED_OFFSET, 0);
    header.set(U32, HEADER_CHECKSUM_OFFSET, headerChecksum(header));
  }

  /** The version whose magic the header starts with, or null: the version word is checked apart ({@link #version}). */
  public static Version versionByMagic(MemorySegment header) {
    for (Version version : Version.values()) {
      if (header.asSlice(MAGIC_OFFSET, MAGIC_BYTES).mismatch(MemorySegment.ofArray(version.magic())) < 0) {
        return version;
      }
    }
    return null;
  }

  public static int version(MemorySegment header) {
    return header.get(U32, VERSION_OFFSET);
  }

  public static long capacity(MemorySegment header) {
    return header.get(U64, CAPACITY_OFFSET);
  }

  /** A VRRL0001 header's cursor. */
  public static long cursor(MemorySegment header) {
    return header.get(U64, CURSOR_OFFSET);
  }

  /** The checksum a VRRL0002 header carries. */
  public static int storedHeaderChecksum(MemorySegment header) {
    return header.get(U32, HEADER_CHECKSUM_OFFSET);
  }

  /** The checksum of a VRRL0002 header's bytes, which {@link #storedHeaderChecksum} must equal. */
  public static int headerChecksum(MemorySegment header) {
    return checksum(header.asByteBuffer(), 0, HEADER_CHECKSUM_OFFSET, new CRC32C());
  }

  // ---------------------------------------------------------------- records

  /** Writes vyre's 64 record bytes: the magic, the slot, and the failure evidence or zeros. */
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

  /**
   * Completes a VRRL0002 record whose first 64 bytes {@link #writeRecord} wrote: its sequence
   * number, the reserved word, and the checksum over all of that. Works on {@code record}'s bytes
   * 0..80 whatever its position and limit, which it leaves as they were; sets its byte order to
   * little-endian. Allocates nothing.
   */
  public static void sealRecord(ByteBuffer record, long sequence, CRC32C crc) {
    int position = record.position();
    int limit = record.limit();
    record.clear().order(ByteOrder.LITTLE_ENDIAN).putLong(SEQUENCE_OFFSET, sequence).putInt(RECORD_RESERVED_OFFSET, 0);
    record.putInt(RECORD_CHECKSUM_OFFSET, recordChecksum(record, 0, crc));
    record.limit(limit).position(position);
  }

  /** The record's magic word: {@link #RECORD_MAGIC}; anything else is damage, or in VRRL0001, 0 for a record never written. */
  public static int recordMagic(MemorySegment record) {
    return record.get(U32, RECORD_MAGIC_OFFSET);
  }

  /** A VRRL0002 record's sequence number (u64). */
  public static long sequence(MemorySegment record) {
    return record.get(U64, SEQUENCE_OFFSET);
  }

  /** The checksum a VRRL0002 record carries. */
  public static int storedRecordChecksum(MemorySegment record) {
    return record.get(U32, RECORD_CHECKSUM_OFFSET);
  }

  /**
   * The checksum of the VRRL0002 record at byte {@code at} of {@code buffer}, which
   * {@link #storedRecordChecksum} must equal; leaves the buffer's position and limit as they were.
   */
  public static int recordChecksum(ByteBuffer buffer, int at, CRC32C crc) {
    return checksum(buffer, at, at + RECORD_CHECKSUM_OFFSET, crc);
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

  /** CRC32C of {@code buffer}'s bytes {@code from..to}, leaving its position and limit as they were. */
  private static int checksum(ByteBuffer buffer, int from, int to, CRC32C crc) {
    int position = buffer.position();
    int limit = buffer.limit();
    crc.reset();
    crc.update(buffer.limit(to).position(from));
    buffer.limit(limit).position(position);
    return (int) crc.getValue();
  }
}
