package dev.vyre.runtime.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.error.ProtocolException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** The slot layout (docs/PROTOCOL.md, "Slot layout") and the ring sizing helpers (docs/PROTOCOL.md, "Ring sizing"). */
class SlotLayoutTest {

  @Test
  void slotHoldsStatusOpcodeTenantPriorityAndTwelveArgs() {
    assertEquals(16, SlotLayout.SLOT_WORDS);
    assertEquals(64, SlotLayout.SLOT_BYTES);
    assertEquals(0, SlotLayout.STATUS_WORD);
    assertEquals(1, SlotLayout.OPCODE_WORD);
    assertEquals(2, SlotLayout.TENANT_WORD);
    assertEquals(3, SlotLayout.PRIORITY_WORD);
    assertEquals(4, SlotLayout.ARG0_WORD);
    assertEquals(12, SlotLayout.ARGS_PER_SLOT);
    assertEquals(32, SlotLayout.slotBase(2));
    assertEquals(48, SlotLayout.statusWord(3));
    assertEquals(16 * 3 + 4 + 11, SlotLayout.argWord(3, 11));
  }

  @Test
  void statusCodesAreVyres() {
    assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, new int[] {SlotLayout.STATUS_EMPTY, SlotLayout.STATUS_PUBLISHED,
        SlotLayout.STATUS_CLAIMED, SlotLayout.STATUS_DONE, SlotLayout.STATUS_WAIT_IO, SlotLayout.STATUS_YIELD,
        SlotLayout.STATUS_REQUEUE, SlotLayout.STATUS_FAULT});
  }

  @Test
  void wordIndexRefusesAWordOutsideTheSlot() {
    ProtocolException e = assertThrows(ProtocolException.class, () -> SlotLayout.wordIndex(0, SlotLayout.SLOT_WORDS));
    assertEquals(ProtocolException.Variant.ByteLengthOverflow, e.variant());
    assertTrue(e.getMessage().contains("outside SLOT_WORDS"), e.getMessage());
    assertThrows(ProtocolException.class, () -> SlotLayout.wordIndex(0, -1));
  }

  @Test
  void wordIndexRefusesASlotWhoseBaseOverflowsU32() {
    assertEquals(0xFFFF_FFFFL, SlotLayout.wordIndex(SlotLayout.MAX_RING_SLOTS, 15));
    for (long slot : new long[] {SlotLayout.MAX_RING_SLOTS + 1, 0xFFFF_FFFFL, Long.MAX_VALUE, -1}) {
      ProtocolException e = assertThrows(ProtocolException.class, () -> SlotLayout.wordIndex(slot, 0));
      assertTrue(e.getMessage().contains("slot word base overflows"), e.getMessage());
    }
  }

  @Test
  void ringByteLengthIsSixtyFourPerSlotUpToMaxRingSlots() {
    assertEquals(268_435_455L, SlotLayout.MAX_RING_SLOTS);
    assertEquals((0xFFFF_FFFFL) / 16, SlotLayout.MAX_RING_SLOTS);
    assertEquals(0, SlotLayout.ringByteLength(0));
    assertEquals(64 * 1024, SlotLayout.ringByteLength(1024));
    assertEquals(SlotLayout.MAX_RING_SLOTS * 64, SlotLayout.ringByteLength(SlotLayout.MAX_RING_SLOTS));
    assertEquals(-1, SlotLayout.ringByteLength(SlotLayout.MAX_RING_SLOTS + 1));
  }

  @Test
  void encodeEmptyRingOfZeroSlotsIsEmpty() {
    assertEquals(0, SlotLayout.encodeEmptyRing(0).length);
    assertArrayEquals(new byte[16 * 64], SlotLayout.encodeEmptyRing(16));
  }

  @Test
  void encodeEmptyRingRefusesMoreThanTheAllocationCap() {
    assertEquals(1_048_576 * 64, SlotLayout.encodeEmptyRing(SlotLayout.MAX_ENCODED_RING_SLOTS).length);
    for (long slots : new long[] {SlotLayout.MAX_ENCODED_RING_SLOTS + 1L, SlotLayout.MAX_RING_SLOTS + 1, -1}) {
      PipelineException e = assertThrows(PipelineException.class, () -> SlotLayout.encodeEmptyRing(slots));
      assertEquals(PipelineException.Variant.InvalidArgument, e.variant());
      assertTrue(e.getMessage().contains("slot"), e.getMessage());
    }
  }

  @Test
  void slotCountRefusesAPartialSlot() {
    assertEquals(3, SlotLayout.slotCount(192));
    assertEquals(0, SlotLayout.slotCount(0));
    PipelineException e = assertThrows(PipelineException.class, () -> SlotLayout.slotCount(100));
    assertEquals(PipelineException.Variant.InvalidArgument, e.variant());
    assertTrue(e.getMessage().contains("not an exact multiple of SLOT_WORDS * 4"), e.getMessage());
  }

  @Test
  void checkArgCountAllowsTwelve() {
    SlotLayout.checkArgCount(12);
    PipelineException e = assertThrows(PipelineException.class, () -> SlotLayout.checkArgCount(13));
    assertTrue(e.getMessage().contains("too many args for one slot; 12 u32 args max per slot"), e.getMessage());
  }

  @Property(tries = 300)
  void wordIndexIsTypedForAnyInput(@ForAll long slot, @ForAll int word) {
    Wire.onlyTyped(() -> SlotLayout.wordIndex(slot, word));
  }

  @Property(tries = 300)
  void sizingHelpersAreTypedForAnyInput(@ForAll long value) {
    Wire.onlyTyped(() -> SlotLayout.slotCount(Math.abs(value % 100_000)));
    // Small counts are allocated, so only counts the cap refuses stay large.
    Wire.onlyTyped(() -> SlotLayout.encodeEmptyRing(value < 0 || value > SlotLayout.MAX_ENCODED_RING_SLOTS ? value : value % 4096));
  }
}
