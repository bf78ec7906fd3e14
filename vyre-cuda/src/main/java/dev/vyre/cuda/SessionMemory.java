package dev.vyre.cuda;

import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.cuda.internal.Releases;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Allocates a session's memory, each allocation's free registered in the session's {@link Releases}:
 * zeroed mapped pinned host memory, handed out as a view scoped to the session's views (closed before
 * the frees run, so a late holder gets IllegalStateException instead of reading freed memory), and
 * device memory. Its owner calls it under its lock or from its constructor.
 */
final class SessionMemory {

  static final long PAGE = 4096;
  /** Zeroed pinned memory that device memory allocated after the launch is zeroed from, a copy at a time. */
  private static final long ZEROS_BYTES = 4L << 20;

  private final CudaDriver driver;
  private final Releases releases;
  private final Arena views;
  private boolean launched;
  private MemorySegment zeros;

  SessionMemory(CudaDriver driver, Releases releases, Arena views) {
    this.driver = driver;
    this.releases = releases;
    this.views = views;
  }

  CudaDriver driver() {
    return driver;
  }

  /** Zeroed mapped pinned memory as a view scoped to the views; the release keeps the driver's unscoped segment. */
  MemorySegment mapped(long bytes) {
    MemorySegment pinned = driver.allocMappedHost(bytes);
    releases.add(() -> driver.freeHost(pinned));
    MemorySegment view = pinned.reinterpret(views, null);
    view.fill((byte) 0);
    return view;
  }

  /** Mapped pinned memory: the host's view and the device's address of its first byte. */
  record Mapped(MemorySegment host, long devicePointer) {

    Mapped slice(long offset, long bytes) {
      return new Mapped(host.asSlice(offset, bytes), devicePointer + offset);
    }
  }

  /**
   * {@code bytes} of zeroed mapped memory starting on a page: the driver sub-allocates small pinned
   * blocks, and io_uring's registered buffers need pages.
   */
  Mapped pageAligned(long bytes) {
    MemorySegment block = mapped(bytes + PAGE - 1);
    long skip = (PAGE - block.address() % PAGE) % PAGE;
    return new Mapped(block, driver.devicePointer(block)).slice(skip, bytes);
  }

  /** Device memory, zeroed when asked. */
  long device(long bytes, boolean zero) {
    long pointer = driver.allocDevice(bytes);
    releases.add(() -> driver.freeDevice(pointer));
    if (zero) {
      zero(pointer, bytes);
    }
    return pointer;
  }

  /** Says that the persistent kernel has launched: from now on device memory is zeroed by copies. */
  void launched() {
    launched = true;
  }

  /**
   * Zeroes {@code bytes} of device memory: before the launch with cuMemsetD8; after it by copies from zeroed
   * pinned memory. A memset runs as a kernel on the SMs, and while the persistent kernel leaves no SM room
   * for one of its blocks (a kernel of more registers a thread or more shared memory than today's) it
   * waits for ever, and the legacy stream behind it: the promoted-table kernel hung there. Copies take the
   * copy engines.
   */
  void zero(long pointer, long bytes) {
    if (!launched) {
      driver.memset(pointer, 0, bytes);
      return;
    }
    if (zeros == null) {
      zeros = mapped(ZEROS_BYTES);
    }
    for (long done = 0; done < bytes; done += ZEROS_BYTES) {
      driver.copyToDevice(pointer + done, zeros, Math.min(ZEROS_BYTES, bytes - done));
    }
  }

  /**
   * Waits for the copies and memsets issued on the legacy stream: cuMemcpyHtoD from pageable memory
   * and cuMemsetD8 may return before device memory changed, and a task published next must see the
   * change. The kernel's stream is non-blocking, so this does not wait for the kernel.
   */
  void awaitLegacyStream() {
    driver.synchronizeStream(MemorySegment.NULL);
  }
}
