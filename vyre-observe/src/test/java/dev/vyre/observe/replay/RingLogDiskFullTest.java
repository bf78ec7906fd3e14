package dev.vyre.observe.replay;

import static dev.vyre.observe.replay.ReplayLogFixtures.rec;
import static dev.vyre.observe.replay.ReplayLogFixtures.slotIds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.observe.replay.ReplayLogFormat.Version;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk-full drill at the log's level: a log on a "disk" that fills up after every possible
 * number of bytes, in and between records. The append that does not fit fails with an {@code Io}
 * error naming the record, and the log reads back with every record before it, the part of the
 * failed one that was written reported as a torn tail.
 */
class RingLogDiskFullTest {

  /** Records the log could hold: more than the disk takes. */
  private static final int CAPACITY = 8;
  /** Whole records the fullest disk here takes. */
  private static final int MOST_RECORDS = 4;

  @TempDir Path dir;

  @Test
  void aFullDiskEndsAppendingWithAClearErrorAndTheRecordsBeforeItReadBack() throws IOException {
    long most = Version.VRRL0002.recordOffset(MOST_RECORDS) + ReplayLogFormat.RECORD_BYTES - 1;
    for (long space = ReplayLogFormat.HEADER_BYTES; space <= most; space++) {
      Path path = dir.resolve("full-" + space + ".vrrl");
      int fits = (int) ((space - ReplayLogFormat.HEADER_BYTES) / ReplayLogFormat.RECORD_BYTES);
      long torn = (space - ReplayLogFormat.HEADER_BYTES) % ReplayLogFormat.RECORD_BYTES;
      DiskOfLimitedSpace disk = new DiskOfLimitedSpace(path, space);
      try (RingLog log = RingLog.create(disk, path, CAPACITY)) {
        for (int i = 0; i < fits; i++) {
          log.append(rec(i, i));
        }
        ReplayLogException full = assertThrows(ReplayLogException.class, () -> log.append(rec(fits, fits)), "space " + space);
        long offset = Version.VRRL0002.recordOffset(fits);
        assertEquals(ReplayLogException.Variant.Io, full.variant());
        assertEquals("append", full.fields().get("op"));
        assertEquals("replay log append on `" + path + "` failed at record " + fits + " (byte " + offset + "): java.io.IOException:"
            + " No space left on device; the records written before it are intact. Fix: free disk space (or raise the file"
            + " size limit) and record again; `vyre replay` reads the intact records, a torn last one is reported and"
            + " skipped.", full.getMessage());
        assertInstanceOf(IOException.class, full.getCause());

        ReplayScan scan = RingLog.read(path);
        assertEquals(IntStream.range(0, fits).boxed().toList(), slotIds(scan), "space " + space);
        assertEquals(torn == 0 ? null : new DamagedRecord(fits, offset, "cut short: " + torn + " of its 80 bytes"), scan.tornTail());

        // Space freed: the failed append's place is written again, whole.
        disk.space = Long.MAX_VALUE;
        log.append(rec(fits, fits));
        ReplayScan after = RingLog.read(path);
        assertEquals(IntStream.rangeClosed(0, fits).boxed().toList(), slotIds(after));
        assertNull(after.tornTail());
      }
    }
  }

  @Test
  void aDiskTooFullForTheHeaderFailsTheCreate() throws IOException {
    Path path = dir.resolve("no-room.vrrl");
    ReplayLogException error = assertThrows(ReplayLogException.class, () -> RingLog.create(new DiskOfLimitedSpace(path, 10), path, 4));
    assertEquals(ReplayLogException.Variant.Io, error.variant());
    assertEquals(10, Files.size(path));
    ReplayLogException cutShort = assertThrows(ReplayLogException.class, () -> RingLog.read(path));
    assertEquals(ReplayLogException.Variant.Truncated, cutShort.variant(), "a header cut short holds no record, and says so");
  }

  /**
   * A file channel on a disk with {@code space} bytes for this file: a positional write past it
   * writes what fits and returns (a short write), and the next one fails as a full disk does.
   */
  private static final class DiskOfLimitedSpace extends FileChannel {
    private final FileChannel file;
    long space;

    DiskOfLimitedSpace(Path path, long space) throws IOException {
      this.file = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
      this.space = space;
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      long room = space - position;
      if (room <= 0) {
        throw new IOException("No space left on device");
      }
      if (src.remaining() <= room) {
        return file.write(src, position);
      }
      ByteBuffer fits = src.duplicate().limit(src.position() + (int) room);
      int written = file.write(fits, position);
      src.position(src.position() + written);
      return written;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return file.read(dst, position);
    }

    @Override
    public long size() throws IOException {
      return file.size();
    }

    @Override
    public void force(boolean metaData) throws IOException {
      file.force(metaData);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      file.close();
    }

    // The log writes and reads at positions only; the rest is never called.

    @Override
    public int read(ByteBuffer dst) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) {
      throw new UnsupportedOperationException();
    }

    @Override
    public int write(ByteBuffer src) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long position() {
      throw new UnsupportedOperationException();
    }

    @Override
    public FileChannel position(long newPosition) {
      throw new UnsupportedOperationException();
    }

    @Override
    public FileChannel truncate(long size) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) {
      throw new UnsupportedOperationException();
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) {
      throw new UnsupportedOperationException();
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) {
      throw new UnsupportedOperationException();
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) {
      throw new UnsupportedOperationException();
    }
  }
}
