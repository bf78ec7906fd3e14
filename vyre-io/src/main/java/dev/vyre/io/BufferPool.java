package dev.vyre.io;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.spi.HostViews;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The fixed set of chunk buffers a {@link ChunkReader} reads into, and which of them has a read in
 * flight. The caller allocates the buffers (so they can be CUDA pinned host memory) and owns a
 * buffer's bytes whenever no read is in flight on it. Not thread-safe, like the readers.
 */
public final class BufferPool {

  /** Buffers must start on a page so that they can be registered with io_uring and pinned. */
  public static final long ALIGNMENT = 4096;

  private static final String SOURCE = "chunk buffer pool";
  private static final String FIX = "allocate the buffers with BufferPool.allocate or arena.allocate(bytes, 4096)";

  private final List<MemorySegment> buffers;
  private final boolean[] busy;
  private int busyCount;

  private BufferPool(List<MemorySegment> buffers) {
    this.buffers = buffers;
    this.busy = new boolean[buffers.size()];
  }

  /** {@code count} native buffers of {@code bytes} each (rounded up to 4096), page-aligned. */
  public static List<MemorySegment> allocate(Arena arena, int count, long bytes) {
    long rounded = Math.ceilDiv(bytes, ALIGNMENT) * ALIGNMENT;
    List<MemorySegment> buffers = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      buffers.add(arena.allocate(rounded, ALIGNMENT));
    }
    return buffers;
  }

  /** Checks that every buffer is native, page-aligned, writable and at most 2 GiB - 1 bytes. */
  public static BufferPool of(List<MemorySegment> buffers) {
    if (buffers.isEmpty()) {
      throw InputException.of(SOURCE, "no buffers given", FIX);
    }
    for (int i = 0; i < buffers.size(); i++) {
      MemorySegment buffer = buffers.get(i);
      String problem = !buffer.isNative() ? "is not native memory"
          : buffer.address() % ALIGNMENT != 0 ? "does not start on a 4096-byte boundary"
          : buffer.isReadOnly() ? "is read-only"
          : buffer.byteSize() == 0 || buffer.byteSize() > Integer.MAX_VALUE ? "must hold 1 byte to 2 GiB - 1"
          : null;
      if (problem != null) {
        throw InputException.of(SOURCE, "buffer " + i + " " + problem, FIX);
      }
    }
    return new BufferPool(List.copyOf(buffers));
  }

  public int size() {
    return buffers.size();
  }

  public MemorySegment buffer(int index) {
    return buffers.get(index);
  }

  public boolean busy(int index) {
    return busy[index];
  }

  /** Reads in flight. */
  public int busyCount() {
    return busyCount;
  }

  /**
   * Marks {@code index} as receiving a read of {@code length} bytes; refuses, changing nothing,
   * an unknown or busy buffer or a length it cannot hold.
   */
  public void claim(int index, long length) {
    claim(index, 0, length);
  }

  /**
   * Marks {@code index} as receiving a read of {@code length} bytes from byte {@code offset} on;
   * refuses, changing nothing, an unknown or busy buffer or a range it cannot hold.
   */
  public void claim(int index, long offset, long length) {
    if (index < 0 || index >= buffers.size()) {
      throw PipelineException.invalidArgument("chunk reader", "there is no buffer " + index + " in a pool of "
          + buffers.size(), "use a buffer index below the pool size");
    }
    if (busy[index]) {
      throw PipelineException.busy("chunk reader", "buffer " + index + " already has a read in flight",
          "wait for its completion before reusing the buffer");
    }
    if (offset < 0 || length < 1 || length > buffers.get(index).byteSize() - offset) {
      throw PipelineException.invalidArgument("chunk reader", "a read of " + length + " bytes at byte " + offset
          + " does not fit buffer " + index + " of " + buffers.get(index).byteSize() + " bytes",
          "read 1 byte up to the rest of the buffer");
    }
    // The read into it holds no arena: keep the memory from being freed under it (HostViews).
    if (!HostViews.hold(buffers.get(index).scope())) {
      throw PipelineException.closed("chunk buffer " + index + " (its memory is freed: its kernel shut down)",
          "run the scan again on a running kernel");
    }
    busy[index] = true;
    busyCount++;
  }

  /** Marks {@code index} as free again, once its read came back. */
  public void release(int index) {
    if (busy[index]) {
      busy[index] = false;
      busyCount--;
      HostViews.release(buffers.get(index).scope());
    }
  }
}
