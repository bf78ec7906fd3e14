package dev.vyre.observe.replay;

import dev.vyre.runtime.wire.SlotLayout;

/**
 * One published ring slot as the replay log keeps it (vyre's {@code RecordedSlot}): when it was
 * published, where, by which tenant, its opcode and first four argument words, and the control
 * block's EPOCH at publish. Integers other than the timestamp are u32 bit patterns.
 *
 * @param timestampNs host wall-clock time, nanoseconds since the UNIX epoch (u64)
 */
public record RecordedSlot(long timestampNs, int slotIdx, int tenantId, int opcode, int arg0, int arg1, int arg2, int arg3,
    int epoch) {

  /** A slot with up to twelve argument words, of which the log keeps the first four (missing ones are 0). */
  public static RecordedSlot of(long timestampNs, int slotIdx, int tenantId, int opcode, int[] args, int epoch) {
    SlotLayout.checkArgCount(args.length);
    return new RecordedSlot(timestampNs, slotIdx, tenantId, opcode, arg(args, 0), arg(args, 1), arg(args, 2), arg(args, 3), epoch);
  }

  private static int arg(int[] args, int index) {
    return index < args.length ? args[index] : 0;
  }

  /** The four recorded argument words. */
  public int[] args() {
    return new int[] {arg0, arg1, arg2, arg3};
  }
}
