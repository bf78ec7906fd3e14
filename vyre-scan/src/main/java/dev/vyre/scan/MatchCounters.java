package dev.vyre.scan;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.dfa.MatchCountLayout;
import dev.vyre.runtime.spi.ResourcePlacement;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The host side of a scan's count resource ({@link MatchCountLayout}): one u64 counter per file that
 * DFA_STEP tasks in count mode add their matches to on the device, so a scan that prints counts or
 * file names reads back eight bytes per file, in one copy for many batches, instead of a hit buffer
 * per batch. A DEVICE resource (the kernel adds with device atomics) and a HOST_MAPPED copy that
 * reads land in. Used by one thread, after the tasks that add to the counters read have finished.
 */
final class MatchCounters implements AutoCloseable {

  private final Megakernel kernel;
  private final KernelResourcePool pool;
  private final int counters;
  private final int deviceHandle;
  private final int hostHandle;
  private final MemorySegment host;
  /** For {@link #take}: each counter as it was last taken; made by the first take. */
  private long[] seen;

  MatchCounters(KernelResourcePool pool, int counters) {
    this.kernel = pool.kernel();
    this.pool = pool;
    this.counters = counters;
    long bytes = MatchCountLayout.byteSize(counters);
    this.deviceHandle = pool.take(bytes, ResourcePlacement.DEVICE);
    this.hostHandle = pool.take(bytes, ResourcePlacement.HOST_MAPPED);
    this.host = pool.hostView(hostHandle, bytes);
  }

  /** The DEVICE resource tasks name as their hit resource (DFA_STEP arg5). */
  int handle() {
    return deviceHandle;
  }

  /** Zeroes every counter, before any task that adds to them is published. */
  void reset() {
    MatchCountLayout.init(host, counters);
    kernel.writeResource(deviceHandle, 0, host);
    if (seen != null) {
      Arrays.fill(seen, 0L);
    }
  }

  /** Copies counters {@code [from, to]} back in one read; {@link #counter} then returns them. */
  void read(int from, int to) {
    long offset = MatchCountLayout.counterWord(from) * 4;
    kernel.readResource(deviceHandle, offset, host.asSlice(offset, MatchCountLayout.counterWord(to + 1) * 4 - offset));
  }

  /** Counter {@code index} as the last {@link #read} that covered it copied it. */
  long counter(int index) {
    return MatchCountLayout.counter(host, index);
  }

  /**
   * What counter {@code index} gained since it was last taken, as the last {@link #read} that
   * covered it copied it (which must have run after the tasks that add to it finished). A user that
   * takes counts this way never zeroes the counters between uses, which on a GPU saves a copy to
   * the device each time.
   */
  long take(int index) {
    if (seen == null) {
      seen = new long[counters];
    }
    long now = counter(index);
    long gain = now - seen[index];
    seen[index] = now;
    return gain;
  }

  @Override
  public void close() {
    pool.giveBack(deviceHandle);
    pool.giveBack(hostHandle);
  }
}
