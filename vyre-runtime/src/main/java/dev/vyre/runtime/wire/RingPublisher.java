package dev.vyre.runtime.wire;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.error.ProtocolException;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * vyre's host publication rules over a raw ring (docs/PORTS.md, "Host publication"): every
 * publisher validates the whole request before it mutates anything, writes the payload, and stores
 * PUBLISHED last with release semantics so a kernel that acquires the status sees the payload.
 * Tenant ids are refused at 29 and above (docs/DESIGN.md, "Tenant ids"), where vyre would alias
 * other control words.
 */
public final class RingPublisher {

  public static final int PRIORITY_NORMAL = 2;

  private static final String RING_FIX = "decode only full ring readbacks sized for the submitted item count";

  /** vyre's {@code ResidentWorkItem}: opcode = op handle, args = input, output, param. */
  public record WorkItem(int opHandle, int inputHandle, int outputHandle, int param) {}

  /** One payload for {@link #batchPublish}. */
  public record Item(int opcode, int[] args) {}

  /** A decoded LOAD_MISS slot: the consumer-defined resource id (u32) and the prefetch flag. */
  public record LoadMiss(long resourceId, boolean prefetch) {}

  /** The host-side slot transitions of docs/PROTOCOL.md, "Slot status" other than Publish, which only the payload writers may do. */
  public enum Transition { CLAIM, DONE, FAULT, CANCEL }

  private RingPublisher() {}

  /**
   * Writes words 1..15 of a slot (opcode, tenant, priority, args zero-filled past {@code argCount}),
   * then stores PUBLISHED with release semantics. No validation: callers validate first.
   */
  public static void writeSlot(MemorySegment ring, long slot, int tenant, int priority, int opcode, int[] args, int argOffset, int argCount) {
    long base = writeHeader(ring, slot, tenant, priority, opcode);
    for (int i = 0; i < SlotLayout.ARGS_PER_SLOT; i++) {
      Words.set(ring, base + SlotLayout.ARG0_WORD + i, i < argCount ? args[argOffset + i] : 0);
    }
    Words.setRelease(ring, base + SlotLayout.STATUS_WORD, SlotLayout.STATUS_PUBLISHED);
  }

  /** {@link #writeSlot(MemorySegment, long, int, int, int, int[], int, int)} with three arguments as values (the other nine 0). */
  public static void writeSlot(MemorySegment ring, long slot, int tenant, int priority, int opcode, int arg0, int arg1, int arg2) {
    long base = writeHeader(ring, slot, tenant, priority, opcode);
    Words.set(ring, base + SlotLayout.ARG0_WORD, arg0);
    Words.set(ring, base + SlotLayout.ARG0_WORD + 1, arg1);
    Words.set(ring, base + SlotLayout.ARG0_WORD + 2, arg2);
    for (int i = 3; i < SlotLayout.ARGS_PER_SLOT; i++) {
      Words.set(ring, base + SlotLayout.ARG0_WORD + i, 0);
    }
    Words.setRelease(ring, base + SlotLayout.STATUS_WORD, SlotLayout.STATUS_PUBLISHED);
  }

  /** Writes slot {@code slot}'s opcode, tenant and priority words; returns the slot's first word index. */
  private static long writeHeader(MemorySegment ring, long slot, int tenant, int priority, int opcode) {
    long base = SlotLayout.slotBase(slot);
    Words.set(ring, base + SlotLayout.OPCODE_WORD, opcode);
    Words.set(ring, base + SlotLayout.TENANT_WORD, tenant);
    Words.set(ring, base + SlotLayout.PRIORITY_WORD, priority);
    return base;
  }

  /** Validates one slot's payload as every publisher does: tenant id, argument count, then opcode. */
  public static void checkPayload(int tenant, int opcode, int argCount) {
    ControlLayout.checkTenant(tenant);
    SlotLayout.checkArgCount(argCount);
    Opcodes.validatePublishOpcode(opcode);
  }

  /** vyre's {@code publish_slot}. */
  public static void publishSlot(MemorySegment ring, long slot, int tenant, int opcode, int... args) {
    long slots = SlotLayout.slotCount(ring.byteSize());
    checkPublishable(ring, slots, slot, tenant, opcode, args.length);
    writeSlot(ring, slot, tenant, PRIORITY_NORMAL, opcode, args, 0, args.length);
  }

  /** vyre's {@code batch_publish}: items at start.., then a BATCH_FENCE with {@code [n, tag]}; returns n + 1. */
  public static int batchPublish(MemorySegment ring, long start, int tenant, List<Item> items, int batchTag) {
    long slots = SlotLayout.slotCount(ring.byteSize());
    int n = items.size();
    checkRange(slots, start, n + 1L, "batch publish");
    for (Item item : items) {
      checkPayload(tenant, item.opcode(), item.args().length);
    }
    checkPayload(tenant, Opcodes.BATCH_FENCE, 2);
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

  /** vyre's {@code publish_work_items}: only the target slots change; returns n. */
  public static int publishWorkItems(MemorySegment ring, long start, int tenant, List<WorkItem> items) {
    checkWorkItems(tenant, items);
    long slots = SlotLayout.slotCount(ring.byteSize());
    checkRange(slots, start, items.size(), "work item publish");
    for (int i = 0; i < items.size(); i++) {
      checkPublishable(ring, slots, start + i);
    }
    for (int i = 0; i < items.size(); i++) {
      writeWorkItem(ring, start + i, tenant, items.get(i));
    }
    return items.size();
  }

  /**
   * vyre's {@code encode_work_items_ring_into}: an empty ring of {@code slotCount} slots with the
   * items published in slots 0..n-1, written into {@code reuse} when it has the right length (else a
   * new array). Validates first, so on error {@code reuse} is untouched.
   */
  public static byte[] encodeWorkItemsRingInto(int slotCount, int tenant, List<WorkItem> items, byte[] reuse) {
    checkWorkItemRing(slotCount, tenant, items);
    int length = (int) SlotLayout.ringByteLength(slotCount);
    byte[] bytes = reuse != null && reuse.length == length ? reuse : new byte[length];
    Arrays.fill(bytes, (byte) 0);
    writeWorkItems(MemorySegment.ofArray(bytes), tenant, items);
    return bytes;
  }

  /**
   * The word-array twin of {@link #encodeWorkItemsRingInto}, with the same bytes on a fresh array.
   * Reusing an array of the right length, it rewrites slots 0..n-1 whole and only resets the status
   * of the other slots to EMPTY, so their stale payload stays (as in vyre).
   */
  public static int[] encodeWorkItemsRingWordsInto(int slotCount, int tenant, List<WorkItem> items, int[] reuse) {
    checkWorkItemRing(slotCount, tenant, items);
    int length = slotCount * SlotLayout.SLOT_WORDS;
    int[] words = reuse != null && reuse.length == length ? reuse : new int[length];
    for (int s = items.size(); s < slotCount; s++) {
      words[(int) SlotLayout.statusWord(s)] = SlotLayout.STATUS_EMPTY;
    }
    writeWorkItems(MemorySegment.ofArray(words), tenant, items);
    return words;
  }

  /** vyre's {@code publish_packed_slot}. */
  public static void publishPackedSlot(MemorySegment ring, long slot, int tenant, PackedSlotCodec.PackedOp... ops) {
    int[] args = PackedSlotCodec.encode(ops);
    publishSlot(ring, slot, tenant, Opcodes.PACKED_SLOT, args);
  }

  /**
   * vyre's route window ({@code WindowDescriptor.publish_into}): one slot per payload with args
   * {@code [ticket, class_tag, payload...]}, required (class 0) before lookahead (class 1), from
   * {@code start}. Unlike vyre, a bad payload or slot anywhere publishes nothing. Returns the number
   * of slots published.
   */
  public static int publishWindow(MemorySegment ring, long start, int tenant, int opcode, int ticket,
      List<int[]> required, List<int[]> lookahead) {
    return BatchDescriptor.window(start, tenant, opcode, ticket, required, lookahead).publishInto(ring);
  }

  /** Applies a host transition and returns the previous status; an illegal one mutates nothing. */
  public static int transition(MemorySegment ring, long slot, Transition transition) {
    long slots = SlotLayout.slotCount(ring.byteSize());
    if (slot < 0 || slot >= slots) {
      throw PipelineException.invalidArgument("submission", "slot status of slot " + slot + " is outside the validated ring buffer of "
          + slots + " slots", "validate the ring length before the transition");
    }
    long word = SlotLayout.statusWord(slot);
    int current = Words.getAcquire(ring, word);
    SlotStatus status = SlotStatus.of(current);
    boolean inFlight = status.isSchedulable() || status == SlotStatus.WAIT_IO;
    String problem = switch (transition) {
      case CLAIM -> status.isSchedulable() ? null : "claim requires PUBLISHED, YIELD, or REQUEUE status";
      case DONE -> status == SlotStatus.CLAIMED ? null : "done requires CLAIMED status";
      case FAULT -> inFlight || status == SlotStatus.CLAIMED ? null : "fault requires an in-flight slot status";
      case CANCEL -> inFlight ? null : "cancel requires an unclaimed in-flight slot status";
    };
    if (problem != null) {
      throw PipelineException.invalidArgument("submission", "illegal ring slot transition: " + problem + " (slot " + slot + " is "
          + (status == SlotStatus.UNKNOWN ? Integer.toUnsignedString(current) : status) + ")", "check the slot status before the transition");
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

  /**
   * vyre's lenient {@code count_done_ring_slots}: DONE slots among the first {@code n}; empty when
   * n is 0 or the ring holds fewer than n whole slots. Any byte length is accepted.
   */
  public static OptionalLong countDoneSlots(MemorySegment ring, long n) {
    if (n <= 0 || n > ring.byteSize() / SlotLayout.SLOT_BYTES) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(countDone(ring, n));
  }

  /** vyre's strict {@code try_count_done_ring_slots}: 0 for n = 0; typed errors for a misaligned or short ring. */
  public static long tryCountDoneSlots(MemorySegment ring, long n) {
    if (n == 0) {
      return 0;
    }
    long len = ring.byteSize();
    if (len % 4 != 0) {
      throw ProtocolException.misalignedByteLength("ring", len, "pass whole u32 protocol words; do not decode partial readback buffers");
    }
    if (n < 0 || n > Long.MAX_VALUE / SlotLayout.SLOT_BYTES) {
      throw ProtocolException.byteLengthOverflow("ring", "split the dispatch before ring status decode overflows host address space");
    }
    if (n > len / SlotLayout.SLOT_BYTES) {
      throw ProtocolException.missingWord("ring", n * SlotLayout.SLOT_WORDS, len, RING_FIX);
    }
    return countDone(ring, n);
  }

  private static long countDone(MemorySegment ring, long n) {
    long done = 0;
    for (long s = 0; s < n; s++) {
      if (Words.get(ring, SlotLayout.statusWord(s)) == SlotLayout.STATUS_DONE) {
        done++;
      }
    }
    return done;
  }

  /** vyre's {@code encode_load_miss}: one 64-byte PUBLISHED slot with opcode LOAD_MISS, tenant and priority 0. */
  public static byte[] encodeLoadMiss(int resourceId, boolean prefetch) {
    return Words.bytesOf(SlotLayout.STATUS_PUBLISHED, Opcodes.LOAD_MISS, 0, 0, resourceId, prefetch ? 1 : 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  /**
   * vyre's {@code decode_load_miss}: the request in slot {@code slot}, or empty when its opcode word
   * is not LOAD_MISS or a word it needs lies outside the buffer (the rest of the slot may be missing).
   */
  public static Optional<LoadMiss> decodeLoadMiss(MemorySegment ring, long slot) {
    if (slot < 0 || slot > SlotLayout.MAX_RING_SLOTS) {
      return Optional.empty();
    }
    long words = Words.count(ring);
    long opcode = SlotLayout.slotBase(slot) + SlotLayout.OPCODE_WORD;
    long resource = SlotLayout.argWord(slot, 0);
    long prefetch = SlotLayout.argWord(slot, 1);
    if (opcode >= words || Words.get(ring, opcode) != Opcodes.LOAD_MISS || prefetch >= words) {
      return Optional.empty();
    }
    return Optional.of(new LoadMiss(Integer.toUnsignedLong(Words.get(ring, resource)), Words.get(ring, prefetch) != 0));
  }

  /** Refuses a range of {@code count} slots from {@code start} that does not fit the ring. */
  static void checkRange(long slots, long start, long count, String what) {
    if (start < 0 || start > slots || count > slots - start) {
      throw PipelineException.invalidArgument("submission", what + " of " + count + " slots from slot " + start + " exceeds ring slot count " + slots,
          "enlarge the ring or split the batch");
    }
  }

  /** The checks of {@code publish_slot} in vyre's order: slot index, payload, then the slot's status. */
  static void checkPublishable(MemorySegment ring, long slots, long slot, int tenant, int opcode, int argCount) {
    checkSlot(slots, slot);
    checkPayload(tenant, opcode, argCount);
    checkStatus(ring, slot);
  }

  /** The slot exists and its status is EMPTY or DONE. */
  static void checkPublishable(MemorySegment ring, long slots, long slot) {
    checkSlot(slots, slot);
    checkStatus(ring, slot);
  }

  private static void checkSlot(long slots, long slot) {
    if (slot < 0 || slot >= slots) {
      throw PipelineException.invalidArgument("submission", "slot_idx " + slot + " exceeds ring slot count " + slots,
          "enlarge the ring via SlotLayout.encodeEmptyRing or publish below slot " + slots);
    }
  }

  private static void checkStatus(MemorySegment ring, long slot) {
    int status = Words.getAcquire(ring, SlotLayout.statusWord(slot));
    if (status != SlotLayout.STATUS_EMPTY && status != SlotLayout.STATUS_DONE) {
      throw PipelineException.busy("submission",
          "slot " + slot + " is not publishable; only EMPTY and DONE slots may be written by the host",
          "wait for the slot to reach DONE or publish into another slot");
    }
  }

  private static void checkWorkItems(int tenant, List<WorkItem> items) {
    ControlLayout.checkTenant(tenant);
    for (WorkItem item : items) {
      Opcodes.validatePublishOpcode(item.opHandle());
    }
  }

  private static void checkWorkItemRing(int slotCount, int tenant, List<WorkItem> items) {
    if (Integer.toUnsignedLong(items.size()) > Integer.toUnsignedLong(slotCount)) {
      throw PipelineException.invalidArgument("submission", "work item count " + items.size() + " exceeds ring slot count "
          + Integer.toUnsignedString(slotCount), "enlarge the launch geometry before publishing");
    }
    checkWorkItems(tenant, items);
    SlotLayout.checkEncodable(Integer.toUnsignedLong(slotCount));
  }

  private static void writeWorkItems(MemorySegment ring, int tenant, List<WorkItem> items) {
    for (int i = 0; i < items.size(); i++) {
      writeWorkItem(ring, i, tenant, items.get(i));
    }
  }

  /** {@link #writeSlot} for a work item, without building an argument array. */
  private static void writeWorkItem(MemorySegment ring, long slot, int tenant, WorkItem item) {
    long base = SlotLayout.slotBase(slot);
    Words.set(ring, base + SlotLayout.OPCODE_WORD, item.opHandle());
    Words.set(ring, base + SlotLayout.TENANT_WORD, tenant);
    Words.set(ring, base + SlotLayout.PRIORITY_WORD, PRIORITY_NORMAL);
    Words.set(ring, SlotLayout.argWord(slot, 0), item.inputHandle());
    Words.set(ring, SlotLayout.argWord(slot, 1), item.outputHandle());
    Words.set(ring, SlotLayout.argWord(slot, 2), item.param());
    for (int i = 3; i < SlotLayout.ARGS_PER_SLOT; i++) {
      Words.set(ring, SlotLayout.argWord(slot, i), 0);
    }
    Words.setRelease(ring, base + SlotLayout.STATUS_WORD, SlotLayout.STATUS_PUBLISHED);
  }
}
