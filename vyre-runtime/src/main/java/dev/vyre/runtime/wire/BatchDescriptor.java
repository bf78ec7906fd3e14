package dev.vyre.runtime.wire;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.PipelineException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Slots published into consecutive ring slots from {@code startSlot} (vyre's
 * {@code BatchDescriptor}), also the form a route window takes. vyre publishes item by item, so a
 * late failure leaves earlier items published; here every item is validated first and a rejected
 * batch publishes nothing.
 */
public record BatchDescriptor(long startSlot, List<SlotDescriptor> items) {

  /** Window class tag of required payloads (argument word 1). */
  public static final int WINDOW_REQUIRED = 0;
  /** Window class tag of lookahead payloads. */
  public static final int WINDOW_LOOKAHEAD = 1;

  /**
   * vyre's {@code WindowDescriptor.try_into_batch}: one slot per payload with args
   * {@code [ticket, class_tag, payload...]}, the required payloads before the lookahead ones.
   */
  public static BatchDescriptor window(long startSlot, int tenant, int opcode, int ticket, List<int[]> required, List<int[]> lookahead) {
    List<SlotDescriptor> items = new ArrayList<>(required.size() + lookahead.size());
    addWindowSlots(items, tenant, opcode, ticket, WINDOW_REQUIRED, required);
    addWindowSlots(items, tenant, opcode, ticket, WINDOW_LOOKAHEAD, lookahead);
    return new BatchDescriptor(startSlot, items);
  }

  private static void addWindowSlots(List<SlotDescriptor> items, int tenant, int opcode, int ticket, int windowClass, List<int[]> payloads) {
    for (int[] payload : payloads) {
      if (payload.length > SlotLayout.ARGS_PER_SLOT - 2) {
        throw PipelineException.invalidArgument("submission",
            "too many args for one window payload; ticket plus class plus payload must fit in 12 u32 args",
            "split the payload into payloads of at most 10 words");
      }
      int[] args = new int[payload.length + 2];
      args[0] = ticket;
      args[1] = windowClass;
      System.arraycopy(payload, 0, args, 2, payload.length);
      items.add(new SlotDescriptor.Single(tenant, opcode, args));
    }
  }

  /** Publishes every item, validating all of them first; returns the number of slots published. */
  public int publishInto(MemorySegment ring) {
    int n = items.size();
    if (n == 0) {
      return 0;
    }
    if (startSlot < 0 || startSlot > Unsigned.U32_MAX - (n - 1)) {
      throw PipelineException.invalidArgument("submission", "batch start " + startSlot + " plus item count " + n + " overflows u32",
          "split the descriptor batch before publishing");
    }
    long slots = SlotLayout.slotCount(ring.byteSize());
    int[][] args = new int[n][];
    for (int i = 0; i < n; i++) {
      SlotDescriptor item = items.get(i);
      args[i] = item.args();
      RingPublisher.checkPublishable(ring, slots, startSlot + i, item.tenant(), item.opcode(), args[i].length);
    }
    for (int i = 0; i < n; i++) {
      SlotDescriptor item = items.get(i);
      RingPublisher.writeSlot(ring, startSlot + i, item.tenant(), RingPublisher.PRIORITY_NORMAL, item.opcode(), args[i], 0, args[i].length);
    }
    return n;
  }
}
