package dev.vyre.observe.replay;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * vyre's differential replay log ({@code RingLog}, docs/PROTOCOL.md, "Replay log"): a
 * fixed-capacity circular file of the slots the host published, for inspecting a run afterwards (a
 * record keeps a slot's first four args, as vyre's does, so it does not re-create every slot: a
 * re-run also needs the log's {@link RerunSidecar}). Writes {@link ReplayLogFormat}'s
 * {@code VRRL0002}, every record with its checksum and sequence number; reads vyre's
 * {@code VRRL0001} too ({@link #read}).
 *
 * <p><b>Crashes.</b> The header is written once, when the log is created, before any record. Each
 * append is then one positional write of one whole record, at the end of the file until the log
 * holds its capacity and over the oldest record after, and nothing else: no cursor to update, so
 * no write depends on another. A process that dies therefore leaves every record it appended
 * before, and at most one torn record, the one it was writing, which a reader reports and skips
 * ({@link ReplayScan#tornTail()}). A write is in the operating system's cache once the append
 * returns, so it survives the process being killed; {@link #sync()} makes it survive a machine
 * crash too. Thread-safe: appends and scans take turns.
 *
 * <p>Appending allocates nothing: the record is encoded and its checksum taken in a reused direct buffer.
 */
public final class RingLog implements AutoCloseable {

  private final FileChannel channel;
  private final Path path;
  private final long capacity;
  /** The next append's sequence number: how many appends the log has had. */
  private long sequence;
  private final ByteBuffer recordBuffer = ByteBuffer.allocateDirect(ReplayLogFormat.RECORD_BYTES);
  private final MemorySegment record = MemorySegment.ofBuffer(recordBuffer);
  private final CRC32C crc = new CRC32C();

  private RingLog(FileChannel channel, Path path, long capacity, long sequence) {
    this.channel = channel;
    this.path = path;
    this.capacity = capacity;
    this.sequence = sequence;
  }

  /**
   * Creates a new log of {@code capacity} records at {@code path}, which must not exist or be empty
   * (as {@code mktemp} leaves it).
   *
   * @throws ReplayLogException {@code ZeroCapacity} or {@code CapacityOverflow}; {@code Exists}
   *     when a file with something in it is there; {@code Io} when the file system refuses
   */
  public static RingLog create(Path path, long capacity) {
    ReplayLogFormat.checkCapacity(capacity);
    FileChannel channel;
    try {
      channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (FileAlreadyExistsException e) {
      channel = openChannel(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
      long size = ReplayLogReader.size(channel, path);
      if (size != 0) {
        ReplayLogException exists = ReplayLogException.exists(path.toString(), size);
        closeQuietly(channel, exists);
        throw exists;
      }
    } catch (IOException e) {
      throw ReplayLogException.io("open", path.toString(), e);
    }
    return create(channel, path, capacity);
  }

  /** A new log in the empty file {@code channel} writes (a valid capacity): the header, and no record yet. */
  static RingLog create(FileChannel channel, Path path, long capacity) {
    try {
      ByteBuffer header = ByteBuffer.allocate(ReplayLogFormat.HEADER_BYTES);
      ReplayLogFormat.writeHeader(MemorySegment.ofBuffer(header), capacity);
      ReplayFiles.write(channel, path, header, 0);
      return new RingLog(channel, path, capacity, 0);
    } catch (RuntimeException e) {
      closeQuietly(channel, e);
      throw e;
    }
  }

  /**
   * Opens the log at {@code path} to append to it, creating one of {@code capacity} records if no
   * file (or an empty one) is there. An existing log keeps its own capacity, as in vyre, and the
   * next append goes after its newest record (over a torn one).
   *
   * @throws ReplayLogException {@code ZeroCapacity} or {@code CapacityOverflow} for the capacity
   *     asked for or the one in the header; {@code HeaderMismatch} for a file that is not a
   *     {@code VRRL0002} log (a {@code VRRL0001} one is only read); {@code Corrupt} for a damaged
   *     one; {@code Io} when the file system refuses
   */
  public static RingLog open(Path path, long capacity) {
    ReplayLogFormat.checkCapacity(capacity);
    FileChannel channel = openChannel(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      if (ReplayLogReader.size(channel, path) == 0) {
        return create(channel, path, capacity);
      }
      ReplayLogReader.Header header = ReplayLogReader.readHeader(channel, path);
      if (header.version() != ReplayLogFormat.WRITTEN) {
        throw ReplayLogException.headerMismatch(path.toString(), "found vyre's " + header.version()
            + ", which is read but not appended to (appends are " + ReplayLogFormat.WRITTEN + " records)");
      }
      long next = ReplayLogReader.scan(channel, path, header, false).nextSequence();
      return new RingLog(channel, path, header.capacity(), next);
    } catch (RuntimeException e) {
      closeQuietly(channel, e);
      throw e;
    }
  }

  /**
   * Reads a log of either version without changing it (for inspection): its header and every
   * record, oldest first. A torn last record is reported in {@link ReplayScan#tornTail()}, not refused.
   *
   * @throws ReplayLogException {@code Corrupt} naming the first damaged record (see {@link #salvage});
   *     {@code HeaderMismatch}, {@code Truncated} for a header cut short or a VRRL0001 file of the
   *     wrong length; {@code Io}
   */
  public static ReplayScan read(Path path) {
    return read(path, false);
  }

  /** As {@link #read}, but leaves damaged records out and lists them ({@link ReplayScan#skipped()}); a damaged header is still refused. */
  public static ReplayScan salvage(Path path) {
    return read(path, true);
  }

  private static ReplayScan read(Path path, boolean salvage) {
    FileChannel channel = openChannel(path, StandardOpenOption.READ);
    try {
      return ReplayLogReader.scan(channel, path, ReplayLogReader.readHeader(channel, path), salvage).scan();
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

  public Path path() {
    return path;
  }

  public long capacity() {
    return capacity;
  }

  /** The record the next append writes (the oldest one once the log has wrapped). */
  public synchronized long cursor() {
    return sequence % capacity;
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

  /**
   * @throws ReplayLogException {@code Io} (op {@code append}) when the record cannot be written, a
   *     full disk say: the records before it stay intact, and the next append tries the same place
   */
  private synchronized void appendRecord(RecordedSlot slot, ReplayFailureEvidence failure) {
    ReplayLogFormat.writeRecord(record, slot, failure);
    ReplayLogFormat.sealRecord(recordBuffer.clear(), sequence, crc);
    long index = sequence % capacity;
    long offset = ReplayLogFormat.WRITTEN.recordOffset(index);
    try {
      ReplayFiles.writeFully(channel, recordBuffer, offset);
    } catch (IOException e) {
      throw ReplayLogException.appendFailed(path.toString(), index, offset, e);
    }
    sequence++;
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
   * Reads every record, oldest first, as {@link #read} does.
   *
   * @throws ReplayLogException {@code Corrupt} naming the first damaged record; {@code Truncated}
   *     when the file was shortened while it was read
   */
  public synchronized ReplayScan scan() {
    return ReplayLogReader.scan(channel, path, new ReplayLogReader.Header(ReplayLogFormat.WRITTEN, capacity, 0), false).scan();
  }

  @Override
  public synchronized void close() {
    ReplayFiles.close(channel, path);
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
