package dev.vyre.io;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.uring.LinuxFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The portable {@link ChunkReader}: positional {@link FileChannel} reads, performed when a read is
 * submitted, their completions returned in order by {@link #await}. Used where io_uring is not
 * available ({@link IoBackends#availability()} says why).
 */
public final class FileChannelChunkReader implements ChunkReader {

  private static final String OPEN_FIX = "check that the file exists and is readable";
  private static final String READ_FIX = "check the file (a device error, a directory, or a file replaced while it "
      + "was read)";

  /** Where an open descriptor can be opened again by name; absent without procfs. */
  private static final Path PROC_FDS = Path.of("/proc/self/fd");
  private static final boolean REOPEN_BY_FD = Files.isDirectory(PROC_FDS);

  private final BufferPool pool;
  private final String fallbackReason;
  private final List<FileChannel> files = new ArrayList<>();
  private final List<Path> paths = new ArrayList<>();
  private final ArrayDeque<ReadCompletion> completed = new ArrayDeque<>();
  private boolean closed;

  /** A reader chosen on purpose. */
  public FileChannelChunkReader(BufferPool pool) {
    this(pool, null);
  }

  /** A reader used because io_uring is not; {@code fallbackReason} says why. */
  public FileChannelChunkReader(BufferPool pool, String fallbackReason) {
    this.pool = pool;
    this.fallbackReason = fallbackReason;
  }

  @Override
  public String backend() {
    return fallbackReason == null ? "FileChannel" : "FileChannel (" + fallbackReason + ")";
  }

  @Override
  public BufferPool pool() {
    return pool;
  }

  @Override
  public int openFile(Path file) {
    ensureOpen();
    FileChannel channel = openChannel(file);
    int free = files.indexOf(null);
    if (free < 0) {
      files.add(channel);
      paths.add(file);
      return files.size() - 1;
    }
    files.set(free, channel);
    paths.set(free, file);
    return free;
  }

  /**
   * A channel on {@code file} if it is one with offsets to read at. FileChannel.open of a FIFO
   * (a listed file swapped for one, say) waits in open(2) for a writer for ever, and checking the
   * path first races with the swap. So on Linux the file is opened non-blocking and checked by
   * {@link LinuxFiles#openReadOnly}, and the channel opens that very file again through
   * /proc/self/fd; elsewhere only the racy check before the open is left.
   */
  private static FileChannel openChannel(Path file) {
    if (REOPEN_BY_FD) {
      int fd;
      try {
        fd = LinuxFiles.openReadOnly(file);
      } catch (PipelineException e) {
        if (e.fields().get("errno") instanceof Long) {
          // The file's own error (ENOENT, EACCES, ESPIPE for a FIFO...), which FileErrors names.
          throw e;
        }
        // No native calls here (not glibc, native access denied): the portable open below.
        fd = -1;
      } catch (RuntimeException | LinkageError e) {
        fd = -1;
      }
      if (fd >= 0) {
        try {
          return FileChannel.open(PROC_FDS.resolve(Integer.toString(fd)), StandardOpenOption.READ);
        } catch (IOException | UnsupportedOperationException e) {
          throw PipelineException.backend("cannot open " + file + " for reading: " + e + ". Fix: " + OPEN_FIX, e);
        } finally {
          LinuxFiles.close(fd);
        }
      }
    }
    try {
      if (Files.readAttributes(file, BasicFileAttributes.class).isOther()) {
        // The cause's text is the reason FileErrors prints.
        IOException other = new IOException("not a regular file (a FIFO, a socket or a device)");
        throw PipelineException.backend("cannot open " + file + " for reading: " + other.getMessage() + ". Fix: pass a"
            + " regular file", other);
      }
      return FileChannel.open(file, StandardOpenOption.READ);
    } catch (IOException | UnsupportedOperationException e) {
      throw PipelineException.backend("cannot open " + file + " for reading: " + e + ". Fix: " + OPEN_FIX, e);
    }
  }

  @Override
  public void closeFile(int file) {
    FileChannel channel = channel(file);
    files.set(file, null);
    paths.set(file, null);
    try {
      channel.close();
    } catch (IOException e) {
      throw PipelineException.backend("closing file handle " + file + " failed: " + e, e);
    }
  }

  @Override
  public void submit(int file, long fileOffset, int length, int bufferIndex, long bufferOffset, long userData) {
    ensureOpen();
    FileChannel channel = channel(file);
    if (fileOffset < 0) {
      throw PipelineException.invalidArgument("chunk reader", "file offset " + fileOffset + " is negative",
          "read at offset 0 or later");
    }
    pool.claim(bufferIndex, bufferOffset, length);
    ByteBuffer target = pool.buffer(bufferIndex).asSlice(bufferOffset, length).asByteBuffer();
    try {
      FileReads.readAt(channel, target, fileOffset);
      completed.add(new ReadCompletion(userData, bufferIndex, target.position(), null));
    } catch (IOException e) {
      completed.add(new ReadCompletion(userData, bufferIndex, target.position(),
          PipelineException.backend("reading " + paths.get(file) + " at offset " + fileOffset + " failed: " + e
              + ". Fix: " + READ_FIX, e)));
    }
  }

  @Override
  public int inFlight() {
    return completed.size();
  }

  @Override
  public ReadCompletion await() {
    ReadCompletion completion = poll();
    if (completion == null) {
      throw PipelineException.backend("await() was called with no read in flight");
    }
    return completion;
  }

  /** Reads run in {@link #submit}, so a read in flight has always finished. */
  @Override
  public ReadCompletion poll() {
    ReadCompletion completion = completed.poll();
    if (completion != null) {
      pool.release(completion.bufferIndex());
    }
    return completion;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    while (!completed.isEmpty()) {
      pool.release(completed.poll().bufferIndex());
    }
    for (int file = 0; file < files.size(); file++) {
      if (files.get(file) != null) {
        closeFile(file);
      }
    }
  }

  private FileChannel channel(int file) {
    if (file < 0 || file >= files.size() || files.get(file) == null) {
      throw PipelineException.backend("file handle " + file + " is not open");
    }
    return files.get(file);
  }

  private void ensureOpen() {
    if (closed) {
      throw PipelineException.backend("the FileChannel chunk reader is closed");
    }
  }
}
