package dev.vyre.driver.planner;

/**
 * vyre's {@code ReservationPolicy}: the planner name and the fix that every storage reservation
 * failure quotes. {@link #reserveInts} grows a reusable buffer the way vyre reserves a
 * {@code Vec}: capacities only grow, and a request that cannot be allocated becomes the planner's
 * typed {@code StorageReserveFailed} error instead of an {@link OutOfMemoryError}.
 */
record ReservationPolicy(String context, String fix) {

  /** The largest array length every JVM can allocate. */
  static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

  /** Builds the planner's {@code StorageReserveFailed{field, requested, message}} error. */
  @FunctionalInterface
  interface Failure {
    RuntimeException storageReserveFailed(String field, long requested, String message);
  }

  /**
   * Returns {@code buffer} when it already holds {@code target} entries, otherwise a new zeroed
   * buffer of exactly {@code target} entries; {@code target} is an unsigned count.
   */
  int[] reserveInts(int[] buffer, long target, String item, Failure failure) {
    if (Long.compareUnsigned(target, buffer.length) <= 0) {
      return buffer;
    }
    if (Long.compareUnsigned(target, MAX_ARRAY_LENGTH) > 0) {
      // vyre's buffers hold 8-byte usize entries: past isize::MAX bytes Rust reports a capacity
      // overflow, below it the allocator's refusal.
      boolean capacityOverflow = Long.compareUnsigned(target, Long.MAX_VALUE / Long.BYTES) > 0;
      throw failed(target, item, capacityOverflow, failure);
    }
    try {
      return new int[(int) target];
    } catch (OutOfMemoryError e) {
      throw failed(target, item, false, failure);
    }
  }

  private RuntimeException failed(long target, String item, boolean capacityOverflow, Failure failure) {
    String source = capacityOverflow
        ? "memory allocation failed because the computed capacity exceeded the collection's maximum"
        : "memory allocation failed because the memory allocator returned an error";
    String message = context + " could not reserve " + Long.toUnsignedString(target) + " " + item + "(s): "
        + source + ". Fix: " + fix + ".";
    return failure.storageReserveFailed(item, target, message);
  }
}
