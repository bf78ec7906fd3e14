package dev.vyre.cuda.internal;

import dev.vyre.driver.error.PipelineException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The persistent megakernels this process runs, per device. A persistent kernel holds a block on each of its SMs
 * for as long as it runs, so a launch that needs the whole device (the frontier kernel's cooperative grid, sized
 * for an idle device) would wait for those blocks for ever: it is refused instead, with the way out.
 */
public final class ResidentKernels {

  private static final ConcurrentHashMap<Integer, Integer> LIVE = new ConcurrentHashMap<>();

  private ResidentKernels() {}

  /** A persistent kernel started on {@code device}. */
  public static void launched(int device) {
    LIVE.merge(device, 1, Integer::sum);
  }

  /** A persistent kernel on {@code device} exited: its blocks are free again. */
  public static void exited(int device) {
    LIVE.computeIfPresent(device, (ordinal, live) -> live > 1 ? live - 1 : null);
  }

  /** The persistent kernels running on {@code device}. */
  public static int live(int device) {
    return LIVE.getOrDefault(device, 0);
  }

  /**
   * Throws {@link PipelineException} (Busy) when a persistent kernel of this process runs on {@code device}:
   * {@code launch}, which needs every SM of it, would never start.
   */
  public static void requireIdle(int device, String launch) {
    int live = live(device);
    if (live > 0) {
      throw PipelineException.busy(launch, "device " + device + " runs " + live + " persistent megakernel(s) of this"
          + " process, which hold a block on every SM until they are closed, and this launch needs the whole device",
          "close the megakernel first, or run this on another device or with --backend reference");
    }
  }
}
