package dev.vyre.io;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.uring.IoUringChunkReader;
import dev.vyre.io.uring.IoUringProbe;
import java.util.function.Supplier;

/**
 * Picks the chunk reader: io_uring where it works, else {@link FileChannelChunkReader}, and says
 * why (for {@code vyre doctor} and {@code --verbose}). The io_uring probe runs once per process.
 */
public final class IoBackends {

  private IoBackends() {}

  private static final class Probe {
    static final IoUringAvailability RESULT = IoUringProbe.probe();
  }

  /** Whether io_uring works on this machine, and exactly why not. */
  public static IoUringAvailability availability() {
    return Probe.RESULT;
  }

  /**
   * The best reader over {@code pool}: io_uring when available, otherwise FileChannel carrying the
   * reason in its {@link ChunkReader#backend()} text.
   */
  public static ChunkReader open(BufferPool pool) {
    return open(pool, false);
  }

  /**
   * As {@link #open(BufferPool)}; with {@code parallelReads} io_uring hands every read to its
   * worker threads (FileChannel reads stay in the caller's thread).
   */
  public static ChunkReader open(BufferPool pool, boolean parallelReads) {
    return ioUringOrFileChannel(pool, () -> new IoUringChunkReader(pool, parallelReads));
  }

  /**
   * As {@link #open(BufferPool)}, for a reader that fills few of the pool's buffers: io_uring
   * without registering them ({@link IoUringChunkReader#unregistered}), which for a large pool
   * costs milliseconds before the first read.
   */
  public static ChunkReader openUnregistered(BufferPool pool) {
    return ioUringOrFileChannel(pool, () -> IoUringChunkReader.unregistered(pool));
  }

  private static ChunkReader ioUringOrFileChannel(BufferPool pool, Supplier<ChunkReader> ioUring) {
    IoUringAvailability availability = availability();
    if (!availability.available()) {
      return new FileChannelChunkReader(pool, availability.detail());
    }
    try {
      return ioUring.get();
    } catch (PipelineException e) {
      return new FileChannelChunkReader(pool, "io_uring setup for this pool failed: " + e.getMessage());
    }
  }
}
