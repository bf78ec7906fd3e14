package dev.vyre.observe.replay;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;

/** Records and file surgery the replay log tests share. */
final class ReplayLogFixtures {

  private ReplayLogFixtures() {}

  /** vyre's test record: opcode 0x40000000 + slot, args slot * 1..4. */
  static RecordedSlot rec(int slotIdx, int epoch) {
    return new RecordedSlot(1_000_000 + slotIdx, slotIdx, 0, 0x4000_0000 + slotIdx, slotIdx, slotIdx * 2, slotIdx * 3, slotIdx * 4,
        epoch);
  }

  static List<Integer> slotIds(List<RecordedSlot> slots) {
    return slots.stream().map(RecordedSlot::slotIdx).toList();
  }

  static List<Integer> slotIds(ReplayScan scan) {
    return scan.records().stream().map(record -> record.slot().slotIdx()).toList();
  }

  /** A log of {@code capacity} with records {@code rec(0, 0) .. rec(count - 1, count - 1)} appended. */
  static Path logOf(Path path, long capacity, int count) {
    try (RingLog log = RingLog.create(path, capacity)) {
      for (int i = 0; i < count; i++) {
        log.append(rec(i, i));
      }
    }
    return path;
  }

  static void overwrite(Path path, long position, byte[] bytes) throws IOException {
    try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
      file.seek(position);
      file.write(bytes);
    }
  }

  static void setLength(Path path, long length) throws IOException {
    try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
      file.setLength(length);
    }
  }

  /** A 32-byte VRRL0001-shaped header (vyre's layout) with these fields, then {@code fileLength - 32} zero bytes. */
  static void writeVrrl0001Header(Path path, byte[] magic, int version, long capacity, long cursor, long fileLength)
      throws IOException {
    ByteBuffer header = ByteBuffer.allocate(ReplayLogFormat.HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    header.put(magic).putInt(version).putInt(0).putLong(capacity).putLong(cursor);
    setLength(path, fileLength);
    overwrite(path, 0, header.array());
  }

  /** A VRRL0002 header of {@code capacity} (any value) with a valid checksum, and no records. */
  static void writeVrrl0002Header(Path path, long capacity) throws IOException {
    byte[] header = new byte[ReplayLogFormat.HEADER_BYTES];
    ReplayLogFormat.writeHeader(MemorySegment.ofArray(header), capacity);
    setLength(path, 0);
    overwrite(path, 0, header);
  }

  /** vyre's 64 bytes of {@code slot}'s record, as a VRRL0001 log holds them. */
  static byte[] vrrl0001Record(RecordedSlot slot) {
    byte[] record = new byte[ReplayLogFormat.RECORD_BYTES_VRRL0001];
    ReplayLogFormat.writeRecord(MemorySegment.ofArray(record), slot, null);
    return record;
  }

  /** A whole VRRL0002 record of {@code slot} with sequence number {@code sequence} and a valid checksum. */
  static byte[] vrrl0002Record(RecordedSlot slot, long sequence) {
    ByteBuffer record = ByteBuffer.allocate(ReplayLogFormat.RECORD_BYTES);
    ReplayLogFormat.writeRecord(MemorySegment.ofBuffer(record), slot, null);
    ReplayLogFormat.sealRecord(record, sequence, new CRC32C());
    return record.array();
  }
}
