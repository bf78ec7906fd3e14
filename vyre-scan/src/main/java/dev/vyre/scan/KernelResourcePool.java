package dev.vyre.scan;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.spi.ResourcePlacement;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A megakernel's resources kept for reuse by the scan jobs that run on it one after another or at
 * once. A kernel frees its resources only when it shuts down, and its resource table is finite (and
 * pinned host memory is slow to allocate), so a process that runs many jobs on one kernel, as
 * {@code vyre serve} does, must reuse their buffers: a job takes its resources here and gives them
 * back when it closes. A resource comes back as it was left (not zeroed); scan jobs write every byte
 * they later read.
 *
 * <p>A request takes the smallest free resource of its placement that holds it, if that is at most
 * twice the size asked for plus {@link #SLACK_BYTES}, so that a small buffer never pins a large one;
 * otherwise the kernel allocates a new one. Thread-safe.
 */
public final class KernelResourcePool {

  /** Room a reused resource may have beyond twice the request (a chunk buffer's size varies with the overlap). */
  static final long SLACK_BYTES = 64 << 10;

  private record Held(long bytes, ResourcePlacement placement) {}

  private final Megakernel kernel;
  private final Map<ResourcePlacement, TreeMap<Long, ArrayDeque<Integer>>> free = new EnumMap<>(ResourcePlacement.class);
  private final Map<Integer, Held> sizes = new HashMap<>();
  private long freeBytes;

  public KernelResourcePool(Megakernel kernel) {
    this.kernel = kernel;
  }

  public Megakernel kernel() {
    return kernel;
  }

  /** A resource of at least {@code bytes} bytes and this placement: a free one, or a new one. */
  public synchronized int take(long bytes, ResourcePlacement placement) {
    TreeMap<Long, ArrayDeque<Integer>> bySize = free.get(placement);
    Map.Entry<Long, ArrayDeque<Integer>> fitting = bySize == null ? null : bySize.ceilingEntry(bytes);
    if (fitting != null && fitting.getKey() <= 2 * bytes + SLACK_BYTES) {
      int handle = fitting.getValue().poll();
      if (fitting.getValue().isEmpty()) {
        bySize.remove(fitting.getKey());
      }
      freeBytes -= fitting.getKey();
      return handle;
    }
    int handle = kernel.allocateResource(bytes, placement);
    sizes.put(handle, new Held(bytes, placement));
    return handle;
  }

  /** The host view of a HOST_MAPPED resource taken here, {@code bytes} long. */
  public MemorySegment hostView(int handle, long bytes) {
    MemorySegment host = kernel.resource(handle);
    if (host == null) {
      throw PipelineException.backend("the " + kernel.backendName() + " backend gives no host view of a HOST_MAPPED "
          + "resource. Fix: implement KernelSession.resource for HOST_MAPPED resources");
    }
    return host.asSlice(0, bytes);
  }

  /** Gives back a resource {@link #take} handed out, once nothing reads or writes it any more. */
  public synchronized void giveBack(int handle) {
    Held held = sizes.get(handle);
    if (held == null) {
      throw new IllegalArgumentException("resource " + handle + " was not taken from this pool");
    }
    free.computeIfAbsent(held.placement, placement -> new TreeMap<>())
        .computeIfAbsent(held.bytes, size -> new ArrayDeque<>()).add(handle);
    freeBytes += held.bytes;
  }

  /** Bytes of the resources waiting for reuse, and of all the pool made (for {@code vyre serve --status}). */
  public synchronized long freeBytes() {
    return freeBytes;
  }

  public synchronized long allocatedBytes() {
    long total = 0;
    for (Held held : sizes.values()) {
      total += held.bytes;
    }
    return total;
  }
}
