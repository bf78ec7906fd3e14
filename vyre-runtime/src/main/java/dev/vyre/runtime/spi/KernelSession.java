package dev.vyre.runtime.spi;

import java.time.Duration;

/**
 * One running megakernel on a backend. The host writes the initial buffer contents into
 * {@link #memory()}, calls {@link #launch()} once, and from then on only writes slots, doorbells
 * and the SHUTDOWN word: it never launches again.
 */
public interface KernelSession extends AutoCloseable {

  KernelMemory memory();

  /**
   * Allocates a zeroed, kernel-visible resource buffer (input chunks, DFA tables, hit buffers) and
   * returns its handle, which slot arguments name. Handles are dense from 0. A host view starts
   * on a 4096-byte page, so that io_uring can register HOST_MAPPED chunk buffers.
   */
  int allocateResource(long byteSize, ResourcePlacement placement);

  /**
   * The host view of a resource: always on the reference backend, for HOST_MAPPED resources on
   * CUDA; null for an unknown handle or a DEVICE resource on a GPU.
   */
  java.lang.foreign.MemorySegment resource(int handle);

  /** Copies {@code source} into the resource at {@code offset}; complete when this returns. */
  void writeResource(int handle, long offset, java.lang.foreign.MemorySegment source);

  /** Copies {@code target.byteSize()} bytes of the resource at {@code offset} into {@code target}. */
  void readResource(int handle, long offset, java.lang.foreign.MemorySegment target);

  /**
   * An exact copy of the control block as the kernel sees it now. The host-mapped
   * {@link KernelMemory#control()} may lag for words the kernel changes (CUDA keeps those in
   * device memory and mirrors them); this does not.
   */
  byte[] snapshotControl();

  /** An exact copy of the PRINTF debug log as the kernel sees it now. */
  byte[] snapshotDebugLog();

  /** Starts the persistent kernel over the initialized memory. */
  void launch();

  /** A hint that new work was published; a backend whose workers sleep when idle wakes them. */
  void wake();

  /** Waits for the kernel to exit after SHUTDOWN was set; true when it did within the timeout. */
  boolean awaitExit(Duration timeout);

  /**
   * Tears the kernel down without its cooperation (after a stall); the memory stays readable
   * until {@link #close()}.
   */
  void abort();

  /** Throws a {@link dev.vyre.driver.error.KernelException} if the device reported a fault. */
  void checkHealth();

  /** One line for logs and {@code vyre doctor}: backend, device, geometry. */
  String describe();

  /** Frees the memory; the kernel must have exited or been aborted. */
  @Override
  void close();
}
