package dev.vyre.observe.replay;

import dev.vyre.io.FileReads;
import dev.vyre.observe.replay.ReplayLogFormat.Version;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads a replay log of either version ({@link ReplayLogFormat}) and tells what a crash leaves
 * from damage. A process killed while appending to a VRRL0002 log leaves at most one torn record,
 * the one it was writing: the file's last bytes when they are not a whole record, or else the
 * record the next append would write when it fails its checksum. That record is reported as the
 * torn tail and every intact record is kept. Any other record whose magic, checksum or sequence
 * number is wrong was damaged after it was written: the scan refuses the log ({@code Corrupt},
 * naming the first) or, salvaging, leaves those records out and lists them. A VRRL0001 log has no
 * checksums; only a magic that is neither 0xDEADBEEF nor 0, or a 0 (never written) before a record
 * that was written, is found as damage.
 */
final class ReplayLogReader {

  /** Records read per system call while scanning. */
  private static final int SCAN_BATCH_RECORDS = 1024;

  /**
   * A checked header.
   *
   * @param cursor VRRL0001's, modulo the capacity; 0 for VRRL0002, whose records say where it is
   */
  record Header(Version version, long capacity, long cursor) {}

  /** A scan, and the sequence number the next VRRL0002 append takes. */
  record Result(ReplayScan scan, long nextSequence) {}

  private ReplayLogReader() {}

  /** Reads and checks an existing log's header (and, for VRRL0001, which is never grown, its length). */
  static Header readHeader(FileChannel channel, Path path) {
    long size = size(channel, path);
    ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(size, ReplayLogFormat.HEADER_BYTES));
    readFully(channel, path, buffer, 0, ReplayLogFormat.HEADER_BYTES);
    MemorySegment present = MemorySegment.ofBuffer(buffer.flip());
    // A file that does not start like a log is not one, however short; one that does but ends
    // inside its header was cut short, or its writer died creating it.
    if (!startsLikeALog(present)) {
      throw ReplayLogException.headerMismatch(path.toString(),
          "expected magic \"VRRL0002\" (or vyre's \"VRRL0001\"), found " + describeMagic(present));
    }
    if (size < ReplayLogFormat.HEADER_BYTES) {
      throw ReplayLogException.headerCutShort(path.toString(), size);
    }
    Version version = ReplayLogFormat.versionByMagic(present);
    if (ReplayLogFormat.version(present) != version.number()) {
      throw ReplayLogException.headerMismatch(path.toString(), "expected magic \"" + version + "\" and version "
          + version.number() + ", found " + describeMagic(present) + " version " + Integer.toUnsignedString(ReplayLogFormat.version(present)));
    }
    if (version == Version.VRRL0002 && ReplayLogFormat.storedHeaderChecksum(present) != ReplayLogFormat.headerChecksum(present)) {
      throw ReplayLogException.corruptHeader(path.toString(), String.format("its checksum is 0x%08x, its bytes give 0x%08x",
          ReplayLogFormat.storedHeaderChecksum(present), ReplayLogFormat.headerChecksum(present)));
    }
    long capacity = ReplayLogFormat.capacity(present);
    ReplayLogFormat.checkCapacity(capacity);
    if (version == Version.VRRL0002) {
      return new Header(version, capacity, 0);
    }
    long expected = version.fileLength(capacity);
    if (size != expected) {
      throw ReplayLogException.truncated(path.toString(), size, expected);
    }
    return new Header(version, capacity, Long.remainderUnsigned(ReplayLogFormat.cursor(present), capacity));
  }

  private static boolean startsLikeALog(MemorySegment present) {
    long compared = Math.min(present.byteSize(), ReplayLogFormat.MAGIC_BYTES);
    for (Version version : Version.values()) {
      if (present.asSlice(0, compared).mismatch(MemorySegment.ofArray(version.magic()).asSlice(0, compared)) < 0) {
        return true;
      }
    }
    return false;
  }

  /** The first bytes of a file as text, non-printable bytes escaped. */
  private static String describeMagic(MemorySegment present) {
    StringBuilder magic = new StringBuilder("magic \"");
    long shown = Math.min(present.byteSize(), ReplayLogFormat.MAGIC_BYTES);
    for (byte b : present.asSlice(0, shown).toArray(ValueLayout.JAVA_BYTE)) {
      magic.append(b >= 0x20 && b < 0x7F ? String.valueOf((char) b) : String.format("\\x%02x", b));
    }
    return magic.append('"').toString();
  }

  /**
   * Reads every record of the log whose header is {@code header}, oldest first.
   *
   * @param salvage leave damaged records out (listed in {@link ReplayScan#skipped()}) rather than refuse the log
   * @throws ReplayLogException {@code Corrupt} naming the first damaged record unless salvaging;
   *     {@code Truncated} when the file shrinks while it is read
   */
  static Result scan(FileChannel channel, Path path, Header header, boolean salvage) {
    Result result = header.version() == Version.VRRL0001 ? scanVrrl0001(channel, path, header)
        : scanVrrl0002(channel, path, header);
    List<DamagedRecord> damaged = result.scan().skipped();
    if (!damaged.isEmpty() && !salvage) {
      throw ReplayLogException.corruptRecord(path.toString(), damaged.getFirst(), damaged.size() - 1);
    }
    return result;
  }

  private static Result scanVrrl0001(FileChannel channel, Path path, Header header) {
    Version version = header.version();
    int capacity = (int) header.capacity();
    ReplayRecord[] records = new ReplayRecord[capacity];
    String[] problems = new String[capacity];
    forEachRecord(channel, path, version, capacity, version.fileLength(capacity), (index, record, batch, at) -> {
      int magic = ReplayLogFormat.recordMagic(record);
      if (magic == ReplayLogFormat.RECORD_MAGIC) {
        records[index] = ReplayLogFormat.readRecord(record);
      } else if (magic != 0) {
        problems[index] = String.format("magic 0x%08x, neither 0xdeadbeef nor 0", magic);
      }
    });
    // Records are written in file order from 0 until the log wraps, so a record never written can
    // only come after every written one and at or after the cursor; before either it was zeroed.
    long written = header.cursor();
    for (int index = 0; index < capacity; index++) {
      if (records[index] != null || problems[index] != null) {
        written = Math.max(written, index + 1);
      }
    }
    long empty = 0;
    for (int index = 0; index < capacity; index++) {
      if (records[index] == null && problems[index] == null) {
        if (index < written) {
          problems[index] = "magic 0, which marks a record never written, but records up to " + (written - 1) + " were written";
        } else {
          empty++;
        }
      }
    }
    return new Result(collect(version, capacity, header.cursor(), records, empty, null, problems, null), 0);
  }

  private static Result scanVrrl0002(FileChannel channel, Path path, Header header) {
    Version version = header.version();
    long capacity = header.capacity();
    long size = size(channel, path);
    long body = Math.max(0, size - ReplayLogFormat.HEADER_BYTES);
    int whole = (int) Math.min(body / version.recordBytes(), capacity);
    long rest = body - (long) whole * version.recordBytes();
    ReplayRecord[] records = new ReplayRecord[whole];
    long[] sequences = new long[whole];
    String[] problems = new String[whole];
    CRC32C crc = new CRC32C();
    forEachRecord(channel, path, version, whole, size, (index, record, batch, at) -> {
      int magic = ReplayLogFormat.recordMagic(record);
      int stored = ReplayLogFormat.storedRecordChecksum(record);
      int computed = ReplayLogFormat.recordChecksum(batch, at, crc);
      long sequence = ReplayLogFormat.sequence(record);
      if (magic != ReplayLogFormat.RECORD_MAGIC) {
        problems[index] = String.format("magic 0x%08x, not 0xdeadbeef", magic);
      } else if (stored != computed) {
        problems[index] = String.format("checksum 0x%08x, its bytes give 0x%08x", stored, computed);
      } else if (Long.remainderUnsigned(sequence, capacity) != index) {
        problems[index] = "sequence " + Long.toUnsignedString(sequence) + " belongs at record "
            + Long.remainderUnsigned(sequence, capacity);
      } else {
        records[index] = ReplayLogFormat.readRecord(record);
        sequences[index] = sequence;
      }
    });
    long newest = -1;
    for (int index = 0; index < whole; index++) {
      if (records[index] != null) {
        newest = Math.max(newest, sequences[index]);
      }
    }
    // Each place holds the latest append that maps to it; an older one is left from an earlier lap.
    for (int index = 0; index < whole; index++) {
      long expected = newest - Math.floorMod(newest - index, capacity);
      if (records[index] != null && sequences[index] != expected) {
        problems[index] = "sequence " + sequences[index] + " from an earlier lap: the newest record is " + newest
            + ", so this place holds " + expected;
        records[index] = null;
      }
    }
    long cursor = (newest + 1) % capacity;
    DamagedRecord tornTail = null;
    DamagedRecord pastTheEnd = null;
    if (rest > 0 && whole == capacity) {
      pastTheEnd = new DamagedRecord(capacity, version.fileLength(capacity), rest + " bytes past the last record (a log of "
          + capacity + " records ends at byte " + version.fileLength(capacity) + ")");
    } else if (rest > 0) {
      tornTail = new DamagedRecord(whole, version.recordOffset(whole), "cut short: " + rest + " of its "
          + version.recordBytes() + " bytes");
    } else if (cursor < whole && problems[(int) cursor] != null && (cursor == whole - 1 || whole == capacity)) {
      tornTail = new DamagedRecord(cursor, version.recordOffset(cursor), problems[(int) cursor]);
      problems[(int) cursor] = null;
    }
    long empty = capacity - whole - (tornTail != null && tornTail.index() == whole ? 1 : 0);
    return new Result(collect(version, capacity, cursor, records, empty, tornTail, problems, pastTheEnd), newest + 1);
  }

  /**
   * The scan: {@code records} (by index, null where none was read; the file may end before the
   * capacity) oldest first, which is from the cursor round, and a {@link DamagedRecord} for each
   * index with a problem, in file order, then {@code pastTheEnd}.
   */
  private static ReplayScan collect(Version version, long capacity, long cursor, ReplayRecord[] records, long empty,
      DamagedRecord tornTail, String[] problems, DamagedRecord pastTheEnd) {
    List<ReplayRecord> ordered = new ArrayList<>();
    List<Long> indices = new ArrayList<>();
    for (long k = 0; k < capacity; k++) {
      long index = (cursor + k) % capacity;
      if (index < records.length && records[(int) index] != null) {
        ordered.add(records[(int) index]);
        indices.add(index);
      }
    }
    List<DamagedRecord> damaged = new ArrayList<>();
    for (int index = 0; index < problems.length; index++) {
      if (problems[index] != null) {
        damaged.add(new DamagedRecord(index, version.recordOffset(index), problems[index]));
      }
    }
    if (pastTheEnd != null) {
      damaged.add(pastTheEnd);
    }
    return new ReplayScan(version, capacity, cursor, ordered, indices, empty, tornTail, damaged);
  }

  /** What {@link #forEachRecord} hands each record to: its index, its bytes, and the batch they are in at {@code at}. */
  @FunctionalInterface
  private interface RecordVisitor {
    void visit(int index, MemorySegment record, ByteBuffer batch, int at);
  }

  /** Reads records {@code 0..count} in batches; the file should be {@code expectedLength} bytes. */
  private static void forEachRecord(FileChannel channel, Path path, Version version, long count, long expectedLength,
      RecordVisitor visitor) {
    int recordBytes = version.recordBytes();
    ByteBuffer batch = ByteBuffer.allocate(SCAN_BATCH_RECORDS * recordBytes);
    MemorySegment batchBytes = MemorySegment.ofArray(batch.array());
    for (long first = 0; first < count; first += SCAN_BATCH_RECORDS) {
      int batchRecords = (int) Math.min(SCAN_BATCH_RECORDS, count - first);
      batch.clear().limit(batchRecords * recordBytes);
      readFully(channel, path, batch, version.recordOffset(first), expectedLength);
      for (int i = 0; i < batchRecords; i++) {
        int at = i * recordBytes;
        visitor.visit((int) first + i, batchBytes.asSlice(at, recordBytes), batch, at);
      }
    }
  }

  static long size(FileChannel channel, Path path) {
    try {
      return channel.size();
    } catch (IOException e) {
      throw ReplayLogException.io("stat", path.toString(), e);
    }
  }

  /** Fills {@code buffer} from {@code position}; {@code Truncated} when the file ends first (it should be {@code expectedLength}). */
  private static void readFully(FileChannel channel, Path path, ByteBuffer buffer, long position, long expectedLength) {
    try {
      int wanted = buffer.remaining();
      if (FileReads.readAt(channel, buffer, position) < wanted) {
        throw ReplayLogException.truncated(path.toString(), channel.size(), expectedLength);
      }
    } catch (IOException e) {
      throw ReplayLogException.io("read", path.toString(), e);
    }
  }
}
