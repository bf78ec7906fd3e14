package dev.vyre.runtime.wire;

import dev.vyre.driver.error.PipelineException;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * vyre's host publication rules over a raw ring (vyre-runtime.md §2.4): every publisher validates
 * the whole request before it mutates anything, writes the payload, and stores PUBLISHED last with
 * release semantics so a kernel that acquires the status sees the payload.
 */
public final class RingPublisher {

  public static final int PRIORITY_NORMAL = 2;

  /** vyre's {@code ResidentWorkItem}: opcode = op handle, args = input, output, param. */
  public record WorkItem(int opHandle, int inputHandle, int outputHandle, int param) {}

  /** One payload for {@link #batchPublish}. */
  public record Item(int opcode, int[] args) {}

  private RingPublisher() {}

  /**
   * Writes words 1..15 of a slot (opcode, tenant, priority, args zero-filled past {@code argCount}),
   * then stores PUBLISHED with release semantics. No validation: callers validate first.
   */
  public static void writeSlot(MemorySegment ring, long slot, int tenant, int priority, int opcode, int[] args, int argOffset, int argCount) {
    long base = SlotLayout.slotBase(slot);
    Words.set(ring, base + SlotLayout.OPCODE_WORD, opcode);
    Words.set(ring, base + SlotLayout.TENANT_WORD, tenant);
    Words.set(ring, base + SlotLayout.PRIORITY_WORD, priority);
    for (int i = 0; i < SlotLayout.ARGS_PER_SLOT; i++) {
      Words.set(ring, base + SlotLayout.ARG0_WORD + i, i < argCount ? args[argOffset + i] : 0);
    }
    Words.setRelease(ring, base + SlotLayout.STATUS_WORD, SlotLayout.STATUS_PUBLISHED);
  }

  /** vyre's {@code publish_slot}. */
  public static void publishSlot(MemorySegment ring, long slot, int tenant, int opcode, int... args) {
    long slots = SlotLayout.slotCount(ring.byteSize());
    checkPayload(opcode, args.length);
    checkPublishable(ring, slots, slot);
    writeSlot(ring, slot, tenant, PRIORITY_NORMAL, opcode, args, 0, args.length);
  }

  /** vyre's {@code batch_publish}: items at start.., then a BATCH_FENCE with {@code [n, tag]}; returns n + 1. */
  public static int batchPublish(MemorySegment ring, long start, int tenant, List<Item> items, int batchTag) {
    long slots = SlotLayout.slotCount(ring.byteSize());
    int n = items.size();
    if (start < 0 || start + n + 1 > slots) {
      throw PipelineException.queueFull("submission", "batch of " + (n + 1) + " slots from slot " + start + " exceeds ring slot count " + slots,
          "publish fewer items or start earlier in the ring");
    }
    for (Item item : items) {
      checkPayload(item.opcode(), item.args().length);
    }
    for (long s = start; s <= start + n; s++) {
      checkPublishable(ring, slots, s);
    }
    for (int i = 0; i < n; i++) {
      Item item = items.get(i);
      writeSlot(ring, start + i, tenant, PRIORITY_NORMAL, item.opcode(), item.args(), 0, item.args().length);
    }
    writeSlot(ring, start + n, tenant, PRIORITY_NORMAL, Opcodes.BATCH_FENCE, new int[] {n, batchTag}, 0, 2);
    return n + 1;
  }

  /** vyre's {@code publish_work_items}; returns n. */
  public static int publishWorkItems(MemorySegment ring, long start, int tenant, List<WorkItem> items) {
    long slots = SlotLayout.slotCount(ring.byteSize());
    if (start < 0 || start + items.size() > slots) {
      throw PipelineException.queueFull("submission", "work items exceed the ring slot count " + slots, "publish fewer items");
    }
    for (int i = 0; i < items.size(); i++) {
      Opcodes.validatePublishOpcode(items.get(i).opHandle());
      checkPublishable(ring, slots, start + i);
    }
    for (int i = 0; i < items.size(); i++) {
      WorkItem item = items.get(i);
      writeSlot(ring, start + i, tenant, PRIORITY_NORMAL, item.opHandle(),
          new int[] {item.inputHandle(), item.outputHandle(), item.param()}, 0, 3);
    }
    return items.size();
  }

  /** vyre's {@code publish_packed_slot}. */
  public static void publishPackedSlot(MemorySegment ring, long slot, int tenant, PackedSlotCodec.PackedOp... ops) {
    int[] args = PackedSlotCodec.encode(ops);
    long slots = SlotLayout.slotCount(ring.byteSize());
    checkPublishable(ring, slots, slot);
    writeSlot(ring, slot, tenant, PRIORITY_NORMAL, Opcodes.PACKED_SLOT, args, 0, args.length);
  }

  /**
   * vyre's route window (WindowDescriptor): one slot per payload with args
   * {@code [ticket, class_tag, payload...]}, required (class 0) before lookahead (class 1).
   * Returns the number of slots published.
   */
  public static int publishWindow(MemorySegment ring, long start, int tenant, int opcode, int ticket,
      List<int[]> required, List<int[]> lookahead) {
    int count = required.size() + lookahead.size();
    if (count == 0) {
      return 0;
    }
    if (start + count - 1 > 0xFFFF_FFFFL) {
      throw PipelineException.queueFull("submission", "window start " + start + " + " + count + " slots overflows u32",
          "start the window earlier");
    }
    for (List<int[]> payloads : List.of(required, lookahead)) {
      for (int[] payload : payloads) {
        if (payload.length + 2 > SlotLayout.ARGS_PER_SLOT) {
          throw PipelineException.queueFull("submission",
              "too many args for one window payload; ticket plus class plus payload must fit in 12 u32 args",
              "split the payload");
        }
      }
    }
    long slot = start;
    for (int cls = 0; cls < 2; cls++) {
      for (int[] payload : cls == 0 ? required : lookahead) {
        int[] args = new int[payload.length + 2];
        args[0] = ticket;
        args[1] = cls;
        System.arraycopy(payload, 0, args, 2, payload.length);
        publishSlot(ring, slot++, tenant, opcode, args);
      }
    }
    return count;
  }

  /** The host-side slot transitions of §1.3 other than Publish. */
  public enum Transition { CLAIM, DONE, FAULT, CANCEL }

  /** Applies a host transition and returns the previous status; an illegal one mutates nothing. */
  public static int transition(MemorySegment ring, long slot, Transition transition) {
    long slots = SlotLayout.slotCount(ring.byteSize());
    if (slot < 0 || slot >= slots) {
      throw PipelineException.queueFull("submission", "slot_idx " + slot + " exceeds ring slot count " + slots, "use a slot below " + slots);
    }
    long word = SlotLayout.statusWord(slot);
    int current = Words.getAcquire(ring, word);
    SlotStatus status = SlotStatus.of(current);
    String problem = switch (transition) {
      case CLAIM -> status.isSchedulable() ? null : "claim requires PUBLISHED, YIELD, or REQUEUE status";
      case DONE -> status == SlotStatus.CLAIMED ? null : "done requires CLAIMED status";
      case FAULT -> (status == SlotStatus.PUBLISHED || status == SlotStatus.CLAIMED || status == SlotStatus.WAIT_IO
          || status == SlotStatus.YIELD || status == SlotStatus.REQUEUE) ? null : "fault requires an in-flight slot status";
      case CANCEL -> (status == SlotStatus.PUBLISHED || status == SlotStatus.WAIT_IO || status == SlotStatus.YIELD
          || status == SlotStatus.REQUEUE) ? null : "cancel requires an unclaimed in-flight slot status";
    };
    if (problem != null) {
      throw PipelineException.queueFull("submission", problem + " (slot " + slot + " is " + status + ")", "check the slot status before the transition");
    }
    int target = switch (transition) {
      case CLAIM -> SlotLayout.STATUS_CLAIMED;
      case DONE -> SlotLayout.STATUS_DONE;
      case FAULT -> SlotLayout.STATUS_FAULT;
      case CANCEL -> SlotLayout.STATUS_EMPTY;
    };
    Words.setRelease(ring, word, target);
    return current;
  }

  /** vyre's {@code count_done_ring_slots}: DONE slots among the first {@code n}; -1 when n = 0 or the ring is short. */
  public static long countDoneSlots(MemorySegment ring, long n) {
    if (n == 0 || ring.byteSize() < n * SlotLayout.SLOT_BYTES) {
      return -1;
    }
    long done = 0;
    for (long s = 0; s < n; s++) {
      if (Words.get(ring, SlotLayout.statusWord(s)) == SlotLayout.STATUS_DONE) {
        done++;
      }
    }
    return done;
  }

  /** vyre's {@code encode_load_miss}: one 64-byte PUBLISHED slot with opcode LOAD_MISS. */
  public static byte[] encodeLoadMiss(int resourceId, boolean prefetch) {
    return Words.bytesOf(SlotLayout.STATUS_PUBLISHED, Opcodes.LOAD_MISS, 0, 0, resourceId, prefetch ? 1 : 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  /** vyre's {@code decode_load_miss}: {@code {resource_id, prefetch}} or null when slot {@code s} is not a LOAD_MISS. */
  public static long[] decodeLoadMiss(MemorySegment ring, long s) {
    if ((s + 1) * SlotLayout.SLOT_BYTES > ring.byteSize() || Words.get(ring, SlotLayout.slotBase(s) + SlotLayout.OPCODE_WORD) != Opcodes.LOAD_MISS) {
      return null;
    }
    return new long[] {Integer.toUnsignedLong(Words.get(ring, SlotLayout.argWord(s, 0))), Words.get(ring, SlotLayout.argWord(s, 1)) != 0 ? 1 : 0};
  }

  private static void checkPayload(int opcode, int argCount) {
    if (argCount > SlotLayout.ARGS_PER_SLOT) {
      throw PipelineException.queueFull("submission", "too many args for one slot; 12 u32 args max per slot", "pass at most 12 args");
    }
    Opcodes.validatePublishOpcode(opcode);
  }

  private static void checkPublishable(MemorySegment ring, long slots, long slot) {
    if (slot < 0 || slot >= slots) {
      throw PipelineException.queueFull("submission", "slot_idx " + slot + " exceeds ring slot count " + slots, "use a slot below " + slots);
    }
    int status = Words.getAcquire(ring, SlotLayout.statusWord(slot));
    if (status != SlotLayout.STATUS_EMPTY && status != SlotLayout.STATUS_DONE) {
      throw PipelineException.queueFull("submission",
          "slot " + slot + " is not publishable; only EMPTY and DONE slots may be written by the host",
          "wait for the slot to reach DONE or publish into another slot");
    }
  }
}
