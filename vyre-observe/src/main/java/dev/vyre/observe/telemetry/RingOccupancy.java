package dev.vyre.observe.telemetry;

import dev.vyre.driver.Unsigned;

/**
 * Slot counts per status in one ring snapshot (vyre's {@code RingOccupancy}); u32 counts held as
 * non-negative longs.
 */
public record RingOccupancy(long empty, long published, long claimed, long done, long waitIo, long yieldCount,
    long requeue, long fault, long unknown) {

  public static final RingOccupancy EMPTY = new RingOccupancy(0, 0, 0, 0, 0, 0, 0, 0, 0);

  /** Saturating u32 sum of all nine counts. */
  public long totalSlots() {
    return saturatingSum(empty, published, claimed, done, waitIo, yieldCount, requeue, fault, unknown);
  }

  /**
   * Saturating u32 sum of every slot that is neither EMPTY nor DONE. FAULT and unknown statuses
   * count toward the depth although they are not active (vyre quirk, docs/PORTS.md, "Quirks kept on
   * purpose").
   */
  public long queueDepth() {
    return saturatingSum(published, claimed, waitIo, yieldCount, requeue, fault, unknown);
  }

  private static long saturatingSum(long... counts) {
    long sum = 0;
    for (long count : counts) {
      sum = Unsigned.saturatingAddU32(sum, count);
    }
    return sum;
  }
}
