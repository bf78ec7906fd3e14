package dev.vyre.observe.replay;

import dev.vyre.io.FileReads;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * vyre's differential replay log ({@code RingLog}, docs/PROTOCOL.md, "Replay log"): a
 * fixed-capacity circular file of the slots the host published, in {@link ReplayLogFormat}'s
 * {@code VRRL0001} layout, for inspecting a run afterwards (a record keeps a slot's first four
 * args, as vyre's does, so it does not re-create every slot: a re-run also needs the log's
 * {@link RerunSidecar}). Each append writes one record at the cursor, then the advanced cursor into
 * the header, so a process that dies between appends leaves a log that reopens where it stopped;
 * {@link #sync()} makes it durable against a machine crash too. Thread-safe: appends and scans take
 * turns.
 *
 * <p>Appending allocates nothing: the record is encoded into a reused direct buffer.
 */
public final class RingLog implements AutoCloseable {

  /** Records read per system call while scanning. */
  private static final int SCAN_BATCH_RECORDS = 1024;

  private final FileChannel channel;
  private final Path path;
  private final long capacity;
  private long cursor;
  private final ByteBuffer recordBuffer = ByteBuffer.allocateDirect(ReplayLogFormat.RECORD_BYTES);
  private final MemorySegment record = MemorySegment.ofBuffer(recordBuffer);
  private final ByteBuffer cursorBuffer = ByteBuffer.allocateDirect(Long.BYTES);
  private final MemorySegment cursorBytes = MemorySegment.ofBuffer(cursorBuffer);

  private RingLog(FileChannel channel, Path path, long capacity, long cursor) {
    this.channel = channel;
    this.path = path;
    this.capacity = capacity;
    this.cursor = cursor;
  }

  /**
   * Opens the log at {@code path}, creating one of {@code capacity} records (all never written) if
   * no file is there. An existing log keeps its own capacity, as in vyre; its cursor is the
   * header's modulo that capacity.
   *
   * @throws ReplayLogException {@code ZeroCapacity} or {@code CapacityOverflow} for the capacity
   *     asked for or the one in the header; {@code HeaderMismatch} for a file that is not a
   *     {@code VRRL0001} log; {@code Truncated} for one whose length does not match its capacity;
   *     {@code Io} when the file system refuses
   */
  public static RingLog open(Path path, long capacity) {
    ReplayLogFormat.checkCapacity(capacity);
    boolean existed = Files.exists(path);
    FileChannel channel = openChannel(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      if (existed && !neverStarted(channel, path)) {
        Header header = readHeader(channel, path);
        return new RingLog(channel, path, header.capacity, header.cursor);
      }
      createEmpty(channel, path, capacity);
      return new RingLog(channel, path, capacity, 0);
    } catch (RuntimeException e) {
      closeQuietly(channel, e);
      throw e;
    }
  }

  /** Reads a log without changing it (for inspection): its header and every record, as {@link #scan()} does. */
  public static ReplayScan read(Path path) {
    FileChannel channel = openChannel(path, StandardOpenOption.READ);
    try {
      Header header = readHeader(channel, path);
      return new RingLog(channel, path, header.capacity, header.cursor).scan();
    } finally {
      closeQuietly(channel, null);
    }
  }

  private static FileChannel openChannel(Path path, StandardOpenOption... options) {
    try {
      return FileChannel.open(path, options);
    } catch (IOException e) {
      throw ReplayLogException.io("open", path.toString(), e);
    }
  }

  private record Header(long capacity, long cursor) {}

  /** Reads and checks an existing log's header and length. */
  private static Header readHeader(FileChannel channel, Path path) {
    long size = size(channel, path);
    ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(size, ReplayLogFormat.HEADER_BYTES));
    readFully(channel, path, buffer, 0, ReplayLogFormat.HEADER_BYTES);
    MemorySegment present = MemorySegment.ofBuffer(buffer.flip());
    // A file that does not start like a log is not one, however short; one that does but ends
    // inside its header was cut short.
    long compared = Math.min(present.byteSize(), ReplayLogFormat.MAGIC.length);
    if (present.asSlice(0, compared).mismatch(MemorySegment.ofArray(ReplayLogFormat.MAGIC).asSlice(0, compared)) >= 0) {
      throw ReplayLogException.headerMismatch(path.toString(), "expected magic \"VRRL0001\", found " + describeMagic(present));
    }
    if (size < ReplayLogFormat.HEADER_BYTES) {
      throw ReplayLogException.truncated(path.toString(), size, ReplayLogFormat.HEADER_BYTES);
    }
    if (!ReplayLogFormat.isKnownHeader(present)) {
      throw ReplayLogException.headerMismatch(path.toString(), "expected magic \"VRRL0001\" and version 1, found "
          + describeMagic(present) + " version " + Integer.toUnsignedString(ReplayLogFormat.version(present)));
    }
    long capacity = ReplayLogFormat.capacity(present);
    ReplayLogFormat.checkCapacity(capacity);
    long expected = ReplayLogFormat.fileLength(capacity);
    if (size != expected) {
      throw ReplayLogException.truncated(path.toString(), size, expected);
    }
    return new Header(capacity, Long.remainderUnsigned(ReplayLogFormat.cursor(present), capacity));
  }

  /** The first bytes of a file as text, non-printable bytes escaped. */
  private static String describeMagic(MemorySegment present) {
    StringBuilder magic = new StringBuilder("magic \"");
    long shown = Math.min(present.byteSize(), ReplayLogFormat.MAGIC.length);
    for (byte b : present.asSlice(0, shown).toArray(ValueLayout.JAVA_BYTE)) {
      magic.append(b >= 0x20 && b < 0x7F ? String.valueOf((char) b) : String.format("\\x%02x", b));
    }
    return magic.append('"').toString();
  }

  /**
   * Whether an existing file holds no log yet: empty (made by {@code mktemp}, say), or zeros from
   * end to end, which is what a process that died while creating a log leaves (the header is
   * written last). Such a file is made into a new log rather than refused; a file with anything
   * else in it is left for {@link #readHeader} to judge, so no recorded byte is overwritten.
   */
  private static boolean neverStarted(FileChannel channel, Path path) {
    long size = size(channel, path);
    if (size != 0 && size < ReplayLogFormat.HEADER_BYTES) {
      return false;
    }
    ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
    byte[] zeros = new byte[chunk.capacity()];
    for (long at = 0; at < size; at += chunk.capacity()) {
      chunk.clear().limit((int) Math.min(chunk.capacity(), size - at));
      readFully(channel, path, chunk, at, size);
      if (!Arrays.equals(chunk.array(), 0, chunk.limit(), zeros, 0, chunk.limit())) {
        return false;
      }
    }
    return true;
  }

  /** A new log: the full length of zeros (every record never written), then the header with cursor 0. */
  private static void createEmpty(FileChannel channel, Path path, long capacity) {
    try {
      channel.truncate(0);
    } catch (IOException e) {
      throw ReplayLogException.io("truncate", path.toString(), e);
    }
    write(channel, path, ByteBuffer.allocate(1), ReplayLogFormat.fileLength(capacity) - 1);
    ByteBuffer header = ByteBuffer.allocate(ReplayLogFormat.HEADER_BYTES);
    ReplayLogFormat.writeHeader(MemorySegment.ofBuffer(header), capacity, 0);
    write(channel, path, header, 0);
  }

  public Path path() {
    return path;
  }

  public long capacity() {
    return capacity;
  }

  /** The record the next append writes (the oldest one once the log has wrapped). */
  public synchronized long cursor() {
    return cursor;
  }

  // ---------------------------------------------------------------- appending

  /** Appends a record without failure evidence, overwriting the oldest once the log is full. */
  public void append(RecordedSlot slot) {
    appendRecord(slot, null);
  }

  /** Appends a record with failure evidence. */
  public void appendWithFailure(RecordedSlot slot, ReplayFailureEvidence failure) {
    appendRecord(slot, failure);
  }

  private synchronized void appendRecord(RecordedSlot slot, ReplayFailureEvidence failure) {
    ReplayLogFormat.writeRecord(record, slot, failure);
    write(channel, path, recordBuffer.clear(), ReplayLogFormat.recordOffset(cursor));
    // The record first, then the cursor that covers it: a crash in between leaves the new record
    // where the cursor still points, so it reads back as the oldest record rather than vanishing.
    long next = (cursor + 1) % capacity;
    ReplayLogFormat.writeCursor(cursorBytes, next);
    write(channel, path, cursorBuffer.clear(), ReplayLogFormat.CURSOR_OFFSET);
    cursor = next;
  }

  /** Forces everything appended so far to the storage device (fsync). */
  public synchronized void sync() {
    ReplayFiles.sync(channel, path);
  }

  // ---------------------------------------------------------------- replaying

  /** The records in publish order (oldest first), with their failure evidence. */
  public List<ReplayRecord> replayRecords() {
    return scan().records();
  }

  /** The recorded slots in publish order. */
  public List<RecordedSlot> replayAll() {
    return replayRecords().stream().map(ReplayRecord::slot).toList();
  }

  /**
   * Reads every record from the cursor round to the one before it: records never written are
   * counted, not returned.
   *
   * @throws ReplayLogException {@code HeaderMismatch} naming the first record whose magic is
   *     neither 0 nor 0xDEADBEEF (damage: nothing after it is trusted); {@code Truncated} when the
   *     file was shortened since it was opened
   */
  public synchronized ReplayScan scan() {
    List<ReplayRecord> records = new ArrayList<>();
    List<Long> indices = new ArrayList<>();
    long empty = scanRange(cursor, capacity, records, indices) + scanRange(0, cursor, records, indices);
    return new ReplayScan(capacity, cursor, records, indices, empty);
  }

  /** Decodes records {@code [from, to)} into {@code out}, their indices into {@code indices}; returns how many were never written. */
  private long scanRange(long from, long to, List<ReplayRecord> out, List<Long> indices) {
    ByteBuffer batch = ByteBuffer.allocate(SCAN_BATCH_RECORDS * ReplayLogFormat.RECORD_BYTES);
    MemorySegment batchBytes = MemorySegment.ofArray(batch.array());
    long empty = 0;
    for (long first = from; first < to; first += SCAN_BATCH_RECORDS) {
      int count = (int) Math.min(SCAN_BATCH_RECORDS, to - first);
      batch.clear().limit(count * ReplayLogFormat.RECORD_BYTES);
      readFully(channel, path, batch, ReplayLogFormat.recordOffset(first), ReplayLogFormat.fileLength(capacity));
      for (int i = 0; i < count; i++) {
        MemorySegment one = batchBytes.asSlice((long) i * ReplayLogFormat.RECORD_BYTES, ReplayLogFormat.RECORD_BYTES);
        int magic = ReplayLogFormat.recordMagic(one);
        if (magic == 0) {
          empty++;
        } else if (magic != ReplayLogFormat.RECORD_MAGIC) {
          throw ReplayLogException.headerMismatch(path.toString(), String.format(
              "record %d (byte %d) has magic 0x%08x, neither 0xdeadbeef nor 0", first + i, ReplayLogFormat.recordOffset(first + i), magic));
        } else {
          out.add(ReplayLogFormat.readRecord(one));
          indices.add(first + i);
        }
      }
    }
    return empty;
  }

  @Override
  public synchronized void close() {
    ReplayFiles.close(channel, path);
  }

  // ---------------------------------------------------------------- file access

  private static long size(FileChannel channel, Path path) {
    try {
      return channel.size();
    } catch (IOException e) {
      throw ReplayLogException.io("stat", path.toString(), e);
    }
  }

  private static void write(FileChannel channel, Path path, ByteBuffer buffer, long position) {
    ReplayFiles.write(channel, path, buffer, position);
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

  private static void closeQuietly(FileChannel channel, RuntimeException pending) {
    try {
      channel.close();
    } catch (IOException e) {
      if (pending != null) {
        pending.addSuppressed(e);
      }
    }
  }
}
