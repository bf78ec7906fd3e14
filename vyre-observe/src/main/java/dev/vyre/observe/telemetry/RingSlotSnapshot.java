package dev.vyre.observe.telemetry;

/**
 * One decoded ring slot: its index, status, tenant, opcode and first three arguments (vyre's
 * {@code RingSlotSnapshot}). u32 values are held as non-negative longs.
 */
public record RingSlotSnapshot(long slotIdx, RingStatus status, long tenantId, long opcode, long arg0, long arg1, long arg2) {

  /** vyre's {@code args_prefix}: arg0..arg2. */
  public long[] argsPrefix() {
    return new long[] {arg0, arg1, arg2};
  }
}
