package dev.vyre.runtime.wire;

import static dev.vyre.runtime.wire.Wire.seg;
import static dev.vyre.runtime.wire.Wire.setSlotWord;
import static dev.vyre.runtime.wire.Wire.slotWord;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.error.ProtocolException;
import dev.vyre.runtime.wire.PackedSlotCodec.PackedOp;
import dev.vyre.runtime.wire.RingPublisher.Item;
import dev.vyre.runtime.wire.RingPublisher.LoadMiss;
import dev.vyre.runtime.wire.RingPublisher.Transition;
import dev.vyre.runtime.wire.RingPublisher.WorkItem;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * Host publication (docs/PORTS.md, "Host publication"), host transitions (docs/PROTOCOL.md, "Slot status"), the load-miss
 * slot (docs/PROTOCOL.md, "Load-miss slot") and DONE counting (docs/PROTOCOL.md, "Ring sizing").
 */
class RingPublisherTest {

  private static byte[] ring(int slots) {
    return SlotLayout.encodeEmptyRing(slots);
  }

  private static int status(byte[] ring, int slot) {
    return slotWord(ring, slot, SlotLayout.STATUS_WORD);
  }

  /** The 12 argument words of {@code slot}. */
  private static int[] args(byte[] ring, int slot) {
    int[] args = new int[SlotLayout.ARGS_PER_SLOT];
    for (int i = 0; i < args.length; i++) {
      args[i] = slotWord(ring, slot, SlotLayout.ARG0_WORD + i);
    }
    return args;
  }

  /** A publish the ring can never accept as made: {@code InvalidArgument}, nothing mutated. */
  private static void assertRejectedUnchanged(byte[] ring, String fragment, Runnable publish) {
    assertRefusedUnchanged(ring, PipelineException.Variant.InvalidArgument, fragment, publish);
  }

  /** A publish into a slot still in flight: {@code Busy}, nothing mutated. */
  private static void assertBusyUnchanged(byte[] ring, String fragment, Runnable publish) {
    assertRefusedUnchanged(ring, PipelineException.Variant.Busy, fragment, publish);
  }

  private static void assertRefusedUnchanged(byte[] ring, PipelineException.Variant variant, String fragment, Runnable publish) {
    byte[] before = ring.clone();
    PipelineException e = assertThrows(PipelineException.class, publish::run);
    assertEquals(variant, e.variant(), e.getMessage());
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
    assertTrue(e.getMessage().contains("Fix: "), e.getMessage());
    assertArrayEquals(before, ring, "a rejected publish mutates nothing");
  }

  // ---- publish_slot ----

  @Test
  void publishSlotWritesPayloadPriorityNormalAndStatusLast() {
    byte[] ring = ring(4);
    RingPublisher.publishSlot(seg(ring), 0, 12, Opcodes.STORE_U32, 100, 200);
    assertEquals(SlotLayout.STATUS_PUBLISHED, status(ring, 0));
    assertEquals(Opcodes.STORE_U32, slotWord(ring, 0, SlotLayout.OPCODE_WORD));
    assertEquals(12, slotWord(ring, 0, SlotLayout.TENANT_WORD));
    assertEquals(2, slotWord(ring, 0, SlotLayout.PRIORITY_WORD));
    assertArrayEquals(new int[] {100, 200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, args(ring, 0));
    assertArrayEquals(new byte[64 * 3], Arrays.copyOfRange(ring, 64, 256), "other slots untouched");
  }

  @Test
  void republishingADoneSlotClearsStaleArgs() {
    byte[] ring = ring(4);
    RingPublisher.publishSlot(seg(ring), 0, 1, Opcodes.MEMCPY, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    setSlotWord(ring, 0, SlotLayout.STATUS_WORD, SlotLayout.STATUS_DONE);
    RingPublisher.publishSlot(seg(ring), 0, 1, Opcodes.ATOMIC_ADD, 2);
    assertEquals(Opcodes.ATOMIC_ADD, slotWord(ring, 0, SlotLayout.OPCODE_WORD));
    assertArrayEquals(new int[] {2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, args(ring, 0), "stale args are cleared");
  }

  @Test
  void publishSlotRefusesAnInFlightSlot() {
    byte[] ring = ring(4);
    RingPublisher.publishSlot(seg(ring), 0, 1, Opcodes.STORE_U32, 1);
    for (int inFlight = SlotLayout.STATUS_PUBLISHED; inFlight <= SlotLayout.STATUS_FAULT + 1; inFlight++) {
      if (inFlight == SlotLayout.STATUS_DONE) {
        continue;
      }
      setSlotWord(ring, 0, SlotLayout.STATUS_WORD, inFlight);
      assertBusyUnchanged(ring, "not publishable", () -> RingPublisher.publishSlot(seg(ring), 0, 1, Opcodes.STORE_U32, 2));
    }
  }

  @Test
  void publishSlotRefusesASlotPastTheRing() {
    byte[] ring = ring(2);
    assertRejectedUnchanged(ring, "slot_idx", () -> RingPublisher.publishSlot(seg(ring), 99, 1, Opcodes.STORE_U32, 1));
    assertRejectedUnchanged(ring, "exceeds ring slot count", () -> RingPublisher.publishSlot(seg(ring), -1, 1, Opcodes.NOP));
    byte[] empty = ring(0);
    assertRejectedUnchanged(empty, "slot_idx", () -> RingPublisher.publishSlot(seg(empty), 0, 0, Opcodes.NOP));
  }

  @Test
  void publishSlotRefusesThirteenArgs() {
    byte[] ring = ring(2);
    assertRejectedUnchanged(ring, "too many args for one slot; 12 u32 args max per slot",
        () -> RingPublisher.publishSlot(seg(ring), 0, 1, Opcodes.STORE_U32, new int[13]));
  }

  @Test
  void publishSlotChecksTheSlotIndexBeforeTheArgs() {
    byte[] ring = ring(2);
    assertRejectedUnchanged(ring, "slot_idx", () -> RingPublisher.publishSlot(seg(ring), 5, 1, Opcodes.STORE_U32, new int[13]));
  }

  @Test
  void publishSlotRefusesAnUnpublishableOpcodeIncludingLoadMiss() {
    byte[] ring = ring(2);
    assertRejectedUnchanged(ring, "User opcode overlaps", () -> RingPublisher.publishSlot(seg(ring), 0, 1, Opcodes.LOAD_MISS));
    assertRejectedUnchanged(ring, "User opcode overlaps", () -> RingPublisher.publishSlot(seg(ring), 0, 1, 0x8000_0002));
  }

  @Test
  void publishSlotRefusesTenantsThatWouldAliasOtherControlWords() {
    byte[] ring = ring(2);
    RingPublisher.publishSlot(seg(ring), 0, 28, Opcodes.NOP);
    assertRejectedUnchanged(ring, "tenant id 29", () -> RingPublisher.publishSlot(seg(ring), 1, 29, Opcodes.NOP));
    assertRejectedUnchanged(ring, "tenant id 4294967295", () -> RingPublisher.publishSlot(seg(ring), 1, -1, Opcodes.NOP));
  }

  @Test
  void publishSlotRefusesARingOfPartialSlots() {
    byte[] ring = new byte[100];
    assertRejectedUnchanged(ring, "not an exact multiple of SLOT_WORDS * 4", () -> RingPublisher.publishSlot(seg(ring), 0, 1, Opcodes.NOP));
  }

  @Test
  void publishSlotWorksOnNativeMemory() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment ring = arena.allocate(SlotLayout.ringByteLength(2), 64);
      RingPublisher.publishSlot(ring, 1, 3, Opcodes.ATOMIC_ADD, 5, 160);
      byte[] expected = ring(2);
      RingPublisher.publishSlot(seg(expected), 1, 3, Opcodes.ATOMIC_ADD, 5, 160);
      assertArrayEquals(expected, Words.toBytes(ring));
    }
  }

  // ---- batch_publish ----

  @Test
  void batchPublishWritesItemsThenAFenceAndReturnsNPlusOne() {
    byte[] ring = ring(8);
    int used = RingPublisher.batchPublish(seg(ring), 1, 1,
        List.of(new Item(Opcodes.STORE_U32, new int[] {10, 20}), new Item(Opcodes.ATOMIC_ADD, new int[] {30, 40})), 99);
    assertEquals(3, used);
    assertEquals(Opcodes.STORE_U32, slotWord(ring, 1, SlotLayout.OPCODE_WORD));
    assertEquals(Opcodes.ATOMIC_ADD, slotWord(ring, 2, SlotLayout.OPCODE_WORD));
    assertEquals(Opcodes.BATCH_FENCE, slotWord(ring, 3, SlotLayout.OPCODE_WORD));
    assertArrayEquals(new int[] {2, 99, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, args(ring, 3));
    for (int s = 1; s <= 3; s++) {
      assertEquals(SlotLayout.STATUS_PUBLISHED, status(ring, s));
    }
    assertEquals(SlotLayout.STATUS_EMPTY, status(ring, 0));
    assertEquals(SlotLayout.STATUS_EMPTY, status(ring, 4));
  }

  @Test
  void batchPublishRefusesAFenceCollisionWithoutPartialPublish() {
    byte[] ring = ring(4);
    setSlotWord(ring, 1, SlotLayout.STATUS_WORD, SlotLayout.STATUS_PUBLISHED);
    assertBusyUnchanged(ring, "not publishable",
        () -> RingPublisher.batchPublish(seg(ring), 0, 1, List.of(new Item(Opcodes.STORE_U32, new int[] {10, 20})), 99));
  }

  @Test
  void batchPublishValidatesTheRangeAndEveryPayloadFirst() {
    byte[] ring = ring(4);
    List<Item> three = List.of(new Item(Opcodes.NOP, new int[0]), new Item(Opcodes.NOP, new int[0]), new Item(Opcodes.NOP, new int[0]));
    assertRejectedUnchanged(ring, "exceeds ring slot count", () -> RingPublisher.batchPublish(seg(ring), 1, 1, three, 0));
    assertRejectedUnchanged(ring, "exceeds ring slot count", () -> RingPublisher.batchPublish(seg(ring), Long.MAX_VALUE, 1, three, 0));
    assertRejectedUnchanged(ring, "too many args",
        () -> RingPublisher.batchPublish(seg(ring), 0, 1, List.of(new Item(Opcodes.NOP, new int[0]), new Item(Opcodes.NOP, new int[13])), 0));
    assertRejectedUnchanged(ring, "tenant id", () -> RingPublisher.batchPublish(seg(ring), 0, 30, List.of(), 0));
    assertEquals(1, RingPublisher.batchPublish(seg(ring), 3, 1, List.of(), 5));
    assertEquals(Opcodes.BATCH_FENCE, slotWord(ring, 3, SlotLayout.OPCODE_WORD));
  }

  // ---- work items ----

  @Test
  void publishWorkItemsWritesOnlyTheTargetSlots() {
    byte[] ring = ring(6);
    setSlotWord(ring, 0, 7, 123);
    setSlotWord(ring, 5, 9, 456);
    byte[] before = ring.clone();
    assertEquals(2, RingPublisher.publishWorkItems(seg(ring), 2, 4, List.of(new WorkItem(0x100, 1, 2, 3), new WorkItem(Opcodes.NOP, 4, 5, 6))));
    assertArrayEquals(Arrays.copyOfRange(before, 0, 128), Arrays.copyOfRange(ring, 0, 128));
    assertArrayEquals(Arrays.copyOfRange(before, 256, 384), Arrays.copyOfRange(ring, 256, 384));
    assertEquals(0x100, slotWord(ring, 2, SlotLayout.OPCODE_WORD));
    assertEquals(4, slotWord(ring, 2, SlotLayout.TENANT_WORD));
    assertEquals(2, slotWord(ring, 2, SlotLayout.PRIORITY_WORD));
    assertArrayEquals(new int[] {1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0}, args(ring, 2));
    assertEquals(SlotLayout.STATUS_PUBLISHED, status(ring, 3));
  }

  @Test
  void publishWorkItemsNeedsEveryTargetSlotPublishable() {
    byte[] ring = ring(4);
    setSlotWord(ring, 3, SlotLayout.STATUS_WORD, SlotLayout.STATUS_CLAIMED);
    List<WorkItem> items = List.of(new WorkItem(8, 0, 0, 0), new WorkItem(8, 0, 0, 0));
    assertBusyUnchanged(ring, "not publishable", () -> RingPublisher.publishWorkItems(seg(ring), 2, 0, items));
    assertRejectedUnchanged(ring, "exceeds ring slot count", () -> RingPublisher.publishWorkItems(seg(ring), 3, 0, items));
    assertRejectedUnchanged(ring, "User opcode overlaps",
        () -> RingPublisher.publishWorkItems(seg(ring), 0, 0, List.of(new WorkItem(8, 0, 0, 0), new WorkItem(Opcodes.LOAD_MISS, 0, 0, 0))));
  }

  @Test
  void encodeWorkItemsRingIntoResetsTheRingAndPublishesFromSlotZero() {
    List<WorkItem> items = List.of(new WorkItem(0x200, 7, 8, 9), new WorkItem(Opcodes.STORE_U32, 5, 170, 0));
    byte[] dirty = new byte[4 * 64];
    Arrays.fill(dirty, (byte) 0x5A);
    byte[] bytes = RingPublisher.encodeWorkItemsRingInto(4, 3, items, dirty);
    assertSame(dirty, bytes, "same-sized storage is reused");
    byte[] expected = ring(4);
    RingPublisher.publishWorkItems(seg(expected), 0, 3, items);
    assertArrayEquals(expected, bytes);
    assertEquals(8 * 64, RingPublisher.encodeWorkItemsRingInto(8, 3, items, dirty).length);
    assertEquals(0, RingPublisher.encodeWorkItemsRingInto(0, 3, List.of(), null).length);
  }

  @Test
  void encodeWorkItemsRingIntoLeavesTheDestinationUntouchedOnError() {
    byte[] dest = new byte[2 * 64];
    Arrays.fill(dest, (byte) 7);
    byte[] before = dest.clone();
    List<WorkItem> three = List.of(new WorkItem(8, 0, 0, 0), new WorkItem(8, 0, 0, 0), new WorkItem(8, 0, 0, 0));
    assertRejectedUnchanged(dest, "work item count 3 exceeds ring slot count 2", () -> RingPublisher.encodeWorkItemsRingInto(2, 0, three, dest));
    assertRejectedUnchanged(dest, "User opcode", () -> RingPublisher.encodeWorkItemsRingInto(2, 0, List.of(new WorkItem(0xFFF1, 0, 0, 0)), dest));
    assertRejectedUnchanged(dest, "allocation cap", () -> RingPublisher.encodeWorkItemsRingInto(SlotLayout.MAX_ENCODED_RING_SLOTS + 1, 0, three, dest));
    assertRejectedUnchanged(dest, "allocation cap", () -> RingPublisher.encodeWorkItemsRingInto(-1, 0, three, dest));
    assertArrayEquals(before, dest);
  }

  @Test
  void wordTwinIsByteIdenticalAndOnReuseResetsOnlyStatusWordsPastTheItems() {
    List<WorkItem> items = List.of(new WorkItem(0x200, 7, 8, 9), new WorkItem(Opcodes.NOP, 1, 2, 3));
    int[] words = RingPublisher.encodeWorkItemsRingWordsInto(4, 2, items, null);
    assertArrayEquals(RingPublisher.encodeWorkItemsRingInto(4, 2, items, null), Words.bytesOf(words));
    Arrays.fill(words, 0x77);
    int[] reused = RingPublisher.encodeWorkItemsRingWordsInto(4, 2, items, words);
    assertSame(words, reused);
    byte[] bytes = Words.bytesOf(reused);
    assertArrayEquals(Arrays.copyOfRange(RingPublisher.encodeWorkItemsRingInto(4, 2, items, null), 0, 128), Arrays.copyOfRange(bytes, 0, 128));
    for (int s = 2; s < 4; s++) {
      assertEquals(SlotLayout.STATUS_EMPTY, reused[s * 16]);
      assertEquals(0x77, reused[s * 16 + 1], "stale payload stays");
    }
  }

  // ---- packed slots and windows ----

  @Test
  void publishPackedSlotPublishesThePackedEncoding() {
    byte[] ring = ring(4);
    RingPublisher.publishPackedSlot(seg(ring), 0, 1, new PackedOp(Opcodes.STORE_U32, new int[] {10, 20}), new PackedOp(Opcodes.ATOMIC_ADD, new int[] {30}));
    assertEquals(SlotLayout.STATUS_PUBLISHED, status(ring, 0));
    assertEquals(Opcodes.PACKED_SLOT, slotWord(ring, 0, SlotLayout.OPCODE_WORD));
    assertArrayEquals(new int[] {0x0001_0302, 0x0000_0202, 10, 20, 30, 0, 0, 0, 0, 0, 0, 0}, args(ring, 0));
  }

  @Test
  void publishPackedSlotRefusesAnOverfullSlotWithoutMutation() {
    byte[] ring = ring(4);
    PackedOp[] ops = new PackedOp[5];
    Arrays.fill(ops, new PackedOp(1, new int[] {1, 2, 3}));
    assertRejectedUnchanged(ring, "exceeds the 12-word slot argument budget", () -> RingPublisher.publishPackedSlot(seg(ring), 0, 1, ops));
  }

  @Test
  void windowPublishesRequiredThenLookaheadWithTicketAndClass() {
    byte[] ring = ring(4);
    int consumed = RingPublisher.publishWindow(seg(ring), 1, 5, 0xF101, 77, List.of(new int[] {17}, new int[] {42}), List.of(new int[] {99}));
    assertEquals(3, consumed);
    for (int s = 1; s <= 3; s++) {
      assertEquals(SlotLayout.STATUS_PUBLISHED, status(ring, s));
      assertEquals(0xF101, slotWord(ring, s, SlotLayout.OPCODE_WORD));
      assertEquals(5, slotWord(ring, s, SlotLayout.TENANT_WORD));
    }
    assertArrayEquals(new int[] {77, 0, 17, 0, 0, 0, 0, 0, 0, 0, 0, 0}, args(ring, 1));
    assertArrayEquals(new int[] {77, 0, 42, 0, 0, 0, 0, 0, 0, 0, 0, 0}, args(ring, 2));
    assertArrayEquals(new int[] {77, 1, 99, 0, 0, 0, 0, 0, 0, 0, 0, 0}, args(ring, 3));
    assertEquals(SlotLayout.STATUS_EMPTY, status(ring, 0));
  }

  @Test
  void windowRefusesOverflowOversizedPayloadsAndCollisionsBeforePublishing() {
    byte[] ring = ring(2);
    assertEquals(0, RingPublisher.publishWindow(seg(ring), 0xFFFF_FFFFL, 5, Opcodes.NOP, 77, List.of(), List.of()));
    assertRejectedUnchanged(ring, "overflows u32",
        () -> RingPublisher.publishWindow(seg(ring), 0xFFFF_FFFFL, 5, Opcodes.NOP, 77, List.of(new int[0], new int[0]), List.of()));
    assertRejectedUnchanged(ring, "too many args for one window payload; ticket plus class plus payload must fit in 12 u32 args",
        () -> RingPublisher.publishWindow(seg(ring), 0, 5, Opcodes.NOP, 77, List.of(new int[12]), List.of()));
    assertRejectedUnchanged(ring, "too many args",
        () -> RingPublisher.publishWindow(seg(ring), 0, 5, Opcodes.NOP, 77, List.of(new int[1]), List.of(new int[11])));
    setSlotWord(ring, 1, SlotLayout.STATUS_WORD, SlotLayout.STATUS_CLAIMED);
    assertBusyUnchanged(ring, "not publishable",
        () -> RingPublisher.publishWindow(seg(ring), 0, 5, Opcodes.NOP, 77, List.of(new int[1]), List.of(new int[10])));
  }

  // ---- transitions ----

  private static final Set<Integer> SCHEDULABLE = Set.of(SlotLayout.STATUS_PUBLISHED, SlotLayout.STATUS_YIELD, SlotLayout.STATUS_REQUEUE);

  private static boolean allowed(Transition t, int from) {
    return switch (t) {
      case CLAIM -> SCHEDULABLE.contains(from);
      case DONE -> from == SlotLayout.STATUS_CLAIMED;
      case FAULT -> SCHEDULABLE.contains(from) || from == SlotLayout.STATUS_CLAIMED || from == SlotLayout.STATUS_WAIT_IO;
      case CANCEL -> SCHEDULABLE.contains(from) || from == SlotLayout.STATUS_WAIT_IO;
    };
  }

  @Test
  void transitionsFollowTheHostStateMachine() {
    int[] targets = {SlotLayout.STATUS_CLAIMED, SlotLayout.STATUS_DONE, SlotLayout.STATUS_FAULT, SlotLayout.STATUS_EMPTY};
    String[] fragments = {"claim requires PUBLISHED, YIELD, or REQUEUE status", "done requires CLAIMED status",
        "fault requires an in-flight slot status", "cancel requires an unclaimed in-flight slot status"};
    for (Transition t : Transition.values()) {
      for (int from = 0; from <= 8; from++) {
        byte[] ring = ring(2);
        setSlotWord(ring, 1, SlotLayout.STATUS_WORD, from);
        if (allowed(t, from)) {
          assertEquals(from, RingPublisher.transition(seg(ring), 1, t));
          assertEquals(targets[t.ordinal()], status(ring, 1), t + " from " + from);
        } else {
          int source = from;
          assertRejectedUnchanged(ring, "illegal ring slot transition: " + fragments[t.ordinal()], () -> RingPublisher.transition(seg(ring), 1, t));
          assertEquals(source, status(ring, 1));
        }
      }
    }
  }

  @Test
  void legalLifecycleOfPublishedSlots() {
    byte[] ring = ring(4);
    RingPublisher.publishSlot(seg(ring), 0, 1, Opcodes.STORE_U32, 1);
    assertEquals(SlotLayout.STATUS_PUBLISHED, RingPublisher.transition(seg(ring), 0, Transition.CLAIM));
    assertEquals(SlotLayout.STATUS_CLAIMED, RingPublisher.transition(seg(ring), 0, Transition.DONE));
    assertEquals(SlotLayout.STATUS_DONE, status(ring, 0));
    RingPublisher.publishSlot(seg(ring), 1, 1, Opcodes.STORE_U32, 2);
    RingPublisher.transition(seg(ring), 1, Transition.CANCEL);
    assertEquals(SlotLayout.STATUS_EMPTY, status(ring, 1));
    RingPublisher.publishSlot(seg(ring), 2, 1, Opcodes.STORE_U32, 3);
    RingPublisher.transition(seg(ring), 2, Transition.FAULT);
    assertEquals(SlotLayout.STATUS_FAULT, status(ring, 2));
  }

  @Test
  void transitionRefusesASlotOutsideTheRingAndARingOfPartialSlots() {
    byte[] ring = ring(2);
    assertRejectedUnchanged(ring, "outside the validated ring buffer", () -> RingPublisher.transition(seg(ring), 2, Transition.CLAIM));
    byte[] partial = new byte[65];
    assertRejectedUnchanged(partial, "not an exact multiple of SLOT_WORDS * 4", () -> RingPublisher.transition(seg(partial), 0, Transition.CLAIM));
  }

  // ---- DONE counting ----

  private static byte[] doneClaimedDoneEmpty() {
    byte[] ring = ring(4);
    int[] statuses = {SlotLayout.STATUS_DONE, SlotLayout.STATUS_CLAIMED, SlotLayout.STATUS_DONE, SlotLayout.STATUS_EMPTY};
    for (int s = 0; s < 4; s++) {
      setSlotWord(ring, s, SlotLayout.STATUS_WORD, statuses[s]);
    }
    return ring;
  }

  @Test
  void countDoneSlotsCountsOnlyDoneStatusWords() {
    byte[] ring = doneClaimedDoneEmpty();
    assertEquals(OptionalLong.of(2), RingPublisher.countDoneSlots(seg(ring), 4));
    assertEquals(OptionalLong.of(1), RingPublisher.countDoneSlots(seg(ring), 2));
    assertEquals(OptionalLong.empty(), RingPublisher.countDoneSlots(seg(ring), 0));
    assertEquals(OptionalLong.empty(), RingPublisher.countDoneSlots(seg(Arrays.copyOf(ring, 8)), 4));
    byte[] shifted = new byte[ring.length + 1];
    shifted[0] = (byte) 0xAA;
    System.arraycopy(ring, 0, shifted, 1, ring.length);
    assertEquals(OptionalLong.of(2), RingPublisher.countDoneSlots(seg(shifted).asSlice(1), 4));
    assertEquals(OptionalLong.empty(), RingPublisher.countDoneSlots(seg(ring), Long.MAX_VALUE));
  }

  @Test
  void strictCountDoneSlotsRefusesMisalignedAndShortRings() {
    byte[] ring = doneClaimedDoneEmpty();
    assertEquals(2, RingPublisher.tryCountDoneSlots(seg(ring), 4));
    assertEquals(0, RingPublisher.tryCountDoneSlots(seg(new byte[3]), 0));
    ProtocolException misaligned = assertThrows(ProtocolException.class, () -> RingPublisher.tryCountDoneSlots(seg(Arrays.copyOf(ring, 255)), 3));
    assertEquals(ProtocolException.Variant.MisalignedByteLength, misaligned.variant());
    ProtocolException shortRing = assertThrows(ProtocolException.class, () -> RingPublisher.tryCountDoneSlots(seg(ring), 5));
    assertEquals(ProtocolException.Variant.MissingWord, shortRing.variant());
    assertEquals(80L, shortRing.fields().get("word_idx"));
    assertThrows(ProtocolException.class, () -> RingPublisher.tryCountDoneSlots(seg(ring), Long.MAX_VALUE));
  }

  // ---- load miss ----

  @Test
  void loadMissSlotLayout() {
    byte[] slot = RingPublisher.encodeLoadMiss(42, true);
    assertArrayEquals(Words.bytesOf(1, 0xFFFD, 0, 0, 42, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), slot);
    assertEquals(Optional.of(new LoadMiss(42, true)), RingPublisher.decodeLoadMiss(seg(slot), 0));
    assertEquals(Optional.of(new LoadMiss(0xFFFF_FFFFL, false)), RingPublisher.decodeLoadMiss(seg(RingPublisher.encodeLoadMiss(-1, false)), 0));
  }

  @Test
  void decodeLoadMissIsEmptyForAnotherOpcodeOrAMissingSlot() {
    byte[] slot = RingPublisher.encodeLoadMiss(42, true);
    setSlotWord(slot, 0, SlotLayout.OPCODE_WORD, 0);
    assertEquals(Optional.empty(), RingPublisher.decodeLoadMiss(seg(slot), 0));
    assertEquals(Optional.empty(), RingPublisher.decodeLoadMiss(seg(new byte[60]), 0));
    byte[] ring = new byte[128];
    System.arraycopy(RingPublisher.encodeLoadMiss(7, false), 0, ring, 0, 64);
    System.arraycopy(RingPublisher.encodeLoadMiss(99, true), 0, ring, 64, 64);
    assertEquals(Optional.of(new LoadMiss(7, false)), RingPublisher.decodeLoadMiss(seg(ring), 0));
    assertEquals(Optional.of(new LoadMiss(99, true)), RingPublisher.decodeLoadMiss(seg(ring), 1));
    assertEquals(Optional.empty(), RingPublisher.decodeLoadMiss(seg(ring), 2));
    assertEquals(Optional.empty(), RingPublisher.decodeLoadMiss(seg(ring), -1));
    assertEquals(Optional.empty(), RingPublisher.decodeLoadMiss(seg(ring), 0xFFFF_FFFFL));
  }

  @Test
  void decodeLoadMissReadsOnlyTheWordsItNeeds() {
    byte[] truncated = Arrays.copyOf(RingPublisher.encodeLoadMiss(5, true), 24);
    assertEquals(Optional.of(new LoadMiss(5, true)), RingPublisher.decodeLoadMiss(seg(truncated), 0));
    assertEquals(Optional.empty(), RingPublisher.decodeLoadMiss(seg(Arrays.copyOf(truncated, 23)), 0));
  }

  // ---- fuzzing ----

  @Provide
  Arbitrary<byte[]> rings() {
    Arbitrary<Integer> status = Arbitraries.oneOf(Arbitraries.integers().between(0, 8), Arbitraries.integers());
    Arbitrary<byte[]> structured = Arbitraries.integers().between(0, 12).flatMap(slots ->
        Combinators.combine(Arbitraries.bytes().array(byte[].class).ofSize(slots * 64), status.list().ofSize(slots),
            Arbitraries.of(0, 0, 0, 1, 3)).as((bytes, statuses, trim) -> {
              for (int s = 0; s < slots; s++) {
                setSlotWord(bytes, s, SlotLayout.STATUS_WORD, statuses.get(s));
              }
              return Arrays.copyOf(bytes, Math.max(0, bytes.length - trim));
            }));
    return Arbitraries.oneOf(structured, Arbitraries.bytes().array(byte[].class).ofMaxSize(800));
  }

  @Provide
  Arbitrary<Long> slots() {
    return Arbitraries.oneOf(Arbitraries.longs().between(-2, 14),
        Arbitraries.of(0xFFFF_FFFFL, SlotLayout.MAX_RING_SLOTS, SlotLayout.MAX_RING_SLOTS + 1, Long.MAX_VALUE, Long.MIN_VALUE));
  }

  @Property(tries = 500)
  void decodersOnlyThrowTypedErrors(@ForAll("rings") byte[] bytes, @ForAll("slots") long slot, @ForAll Transition transition) {
    try (Arena arena = Arena.ofConfined()) {
      for (MemorySegment ring : List.of(seg(bytes.clone()), Wire.nativeCopy(arena, bytes))) {
        Wire.onlyTyped(() -> RingPublisher.decodeLoadMiss(ring, slot));
        Wire.onlyTyped(() -> RingPublisher.countDoneSlots(ring, slot));
        Wire.onlyTyped(() -> RingPublisher.tryCountDoneSlots(ring, slot));
        byte[] before = Words.toBytes(ring);
        try {
          RingPublisher.transition(ring, slot, transition);
        } catch (PipelineException e) {
          assertArrayEquals(before, Words.toBytes(ring), "an illegal transition mutates nothing");
        }
      }
    }
  }

  @Property(tries = 300)
  void strictAndLenientDoneCountsAgree(@ForAll("rings") byte[] bytes, @ForAll @IntRange(max = 14) int n) {
    OptionalLong lenient = RingPublisher.countDoneSlots(seg(bytes), n);
    try {
      long strict = RingPublisher.tryCountDoneSlots(seg(bytes), n);
      assertEquals(n == 0 ? OptionalLong.empty() : OptionalLong.of(strict), lenient);
    } catch (ProtocolException e) {
      assertTrue(lenient.isEmpty() || bytes.length % 4 != 0, e.getMessage());
    }
  }

  @Provide
  Arbitrary<int[]> payloads() {
    return Arbitraries.integers().array(int[].class).ofMaxSize(13);
  }

  @Provide
  Arbitrary<Integer> opcodes() {
    return Arbitraries.oneOf(Arbitraries.of(Opcodes.NOP, Opcodes.ATOMIC_ADD, Opcodes.PACKED_SLOT, Opcodes.LOAD_MISS, 0xFFF3, 8, 0x1_0000),
        Arbitraries.integers());
  }

  @Provide
  Arbitrary<Integer> tenants() {
    return Arbitraries.oneOf(Arbitraries.integers().between(0, 30), Arbitraries.integers());
  }

  @Property(tries = 500)
  void publishersOnlyThrowTypedErrorsAndARejectionMutatesNothing(@ForAll("rings") byte[] bytes, @ForAll("slots") long start,
      @ForAll("tenants") int tenant, @ForAll("opcodes") int opcode, @ForAll("payloads") int[] args,
      @ForAll @Size(max = 4) List<@net.jqwik.api.From("payloads") int[]> more) {
    MemorySegment ring = seg(bytes);
    List<Runnable> calls = List.of(
        () -> RingPublisher.publishSlot(ring, start, tenant, opcode, args),
        () -> RingPublisher.batchPublish(ring, start, tenant, more.stream().map(a -> new Item(opcode, a)).toList(), args.length),
        () -> RingPublisher.publishWorkItems(ring, start, tenant, more.stream().map(a -> new WorkItem(opcode, a.length, 0, 0)).toList()),
        () -> RingPublisher.publishWindow(ring, start, tenant, opcode, 1, more, List.of(args)),
        () -> RingPublisher.publishPackedSlot(ring, start, tenant, more.stream().map(a -> new PackedOp(opcode & 0x1FF, a)).toArray(PackedOp[]::new)));
    for (Runnable call : calls) {
      byte[] before = bytes.clone();
      try {
        call.run();
      } catch (PipelineException e) {
        assertTrue(e.getMessage().contains("Fix: "), e.getMessage());
        assertArrayEquals(before, bytes, e.getMessage());
      }
    }
  }

  @Property(tries = 200)
  void ringEncodersOnlyThrowTypedErrors(@ForAll int slotCount, @ForAll("tenants") int tenant, @ForAll("opcodes") int opcode,
      @ForAll @IntRange(max = 20) int items) {
    List<WorkItem> work = java.util.Collections.nCopies(items, new WorkItem(opcode, 1, 2, 3));
    int count = slotCount % 3 == 0 ? slotCount : Math.floorMod(slotCount, 24);
    Wire.onlyTyped(() -> RingPublisher.encodeWorkItemsRingInto(count, tenant, work, null));
    Wire.onlyTyped(() -> RingPublisher.encodeWorkItemsRingWordsInto(count, tenant, work, new int[16]));
  }
}
