package dev.vyre.runtime.ring;

import dev.vyre.runtime.spi.KernelMemory;
import dev.vyre.runtime.wire.ControlLayout;
import java.lang.foreign.MemorySegment;
import java.util.function.Function;

/**
 * The host's views of a kernel's memory: its control block, ring and express lane. Everything on
 * the host reads and writes the kernel's memory through the views held here, and shutdown swaps
 * them to heap copies ({@link #swapToHeapCopies}) before the session frees that memory.
 *
 * <p>A thread that picked up a view just before the swap may use it after the session closed it.
 * The session ends its views before it frees the memory, so that access throws {@link
 * IllegalStateException} instead of reading freed memory; {@link #afterSwap} tells that race from a
 * bug, and {@link #read} repeats such an access on the heap copies. This is the one place that
 * does either.
 *
 * <p>Internal: public for {@code dev.vyre.runtime} (and the JMH benchmarks, on the class path);
 * this package is not exported.
 */
public final class KernelViews {

  /** A read of the views returning an int; a lambda that captures nothing (its argument passed in {@code arg}) allocates nothing. */
  @FunctionalInterface
  public interface IntRead {
    int read(KernelViews views, int arg);
  }

  private volatile MemorySegment control;
  private volatile MemorySegment ring;
  /** The express lane (empty when the backend reads none); see {@link dev.vyre.runtime.wire.ExpressLayout}. */
  private volatile MemorySegment express;
  /** Set once the views are heap copies: an access that a closed view cut short is the race, not a bug. */
  private volatile boolean swapped;

  public KernelViews(MemorySegment control, MemorySegment ring, MemorySegment express) {
    this.control = control;
    this.ring = ring;
    this.express = express;
  }

  /** The views of a session's fresh memory, written as a kernel of {@code tenants} tenants and these partition offsets starts. */
  public static KernelViews bootstrap(KernelMemory memory, int tenants, int[] offsets) {
    KernelViews views = new KernelViews(memory.control(), memory.ring(), memory.express());
    views.express.fill((byte) 0);
    ControlLayout.encodeInto(views.control, false, tenants);
    // vyre's encoder writes quotas nothing reads; ours are read quotas, none until a registry sets one.
    ControlLayout.clearReadQuotas(views.control);
    ControlLayout.writePriorityOffsets(views.control, offsets);
    views.ring.fill((byte) 0);
    return views;
  }

  public MemorySegment control() {
    return control;
  }

  public MemorySegment ring() {
    return ring;
  }

  public MemorySegment express() {
    return express;
  }

  /**
   * Replaces the views with heap copies of the control block and ring, and the express lane with an
   * empty one (nothing reads it once the kernel has exited), before the session frees the memory.
   */
  public void swapToHeapCopies() {
    control = heapCopy(control);
    ring = heapCopy(ring);
    express = MemorySegment.ofArray(new long[0]);
    swapped = true;
  }

  /** An 8-byte-aligned heap copy, so the ordered and u64 accessors keep working on it. */
  private static MemorySegment heapCopy(MemorySegment segment) {
    MemorySegment copy = MemorySegment.ofArray(new long[(int) ((segment.byteSize() + 7) / 8)]).asSlice(0, segment.byteSize());
    copy.copyFrom(segment);
    return copy;
  }

  /**
   * For an access to the kernel's memory that threw {@code e}: returns when that was a view the
   * session ended after the swap (the kernel is shut down; the caller may repeat the access, now
   * on the heap copies, or report the kernel closed), and rethrows {@code e} when it was not.
   */
  public void afterSwap(IllegalStateException e) {
    if (!swapped) {
      throw e;
    }
  }

  /** Runs {@code read}, once more on the heap copies if a view ended under it (see {@link #afterSwap}). */
  public int read(IntRead read, int arg) {
    try {
      return read.read(this, arg);
    } catch (IllegalStateException e) {
      afterSwap(e);
      return read.read(this, arg);
    }
  }

  /** {@link #read(IntRead, int)} for a read that returns an object (off the hot paths: the lambda may capture). */
  public <T> T read(Function<KernelViews, T> read) {
    try {
      return read.apply(this);
    } catch (IllegalStateException e) {
      afterSwap(e);
      return read.apply(this);
    }
  }
}
