package dev.vyre.runtime.wire;

import static dev.vyre.runtime.wire.Wire.seg;
import static dev.vyre.runtime.wire.Wire.setSlotWord;
import static dev.vyre.runtime.wire.Wire.slotWord;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.wire.PackedSlotCodec.PackedOp;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/PORTS.md, "Host publication": the typed batch and window descriptors. */
class BatchDescriptorTest {

  private static final SlotDescriptor NOP = new SlotDescriptor.Single(0, Opcodes.NOP, new int[0]);

  @Test
  void publishesSequentialSlots() {
    byte[] ring = SlotLayout.encodeEmptyRing(4);
    BatchDescriptor batch = new BatchDescriptor(1, List.of(NOP, new SlotDescriptor.Single(0, Opcodes.ATOMIC_ADD, new int[] {1, 2})));
    assertEquals(2, batch.publishInto(seg(ring)));
    assertEquals(SlotLayout.STATUS_PUBLISHED, slotWord(ring, 1, SlotLayout.STATUS_WORD));
    assertEquals(SlotLayout.STATUS_PUBLISHED, slotWord(ring, 2, SlotLayout.STATUS_WORD));
    assertEquals(Opcodes.ATOMIC_ADD, slotWord(ring, 2, SlotLayout.OPCODE_WORD));
    assertEquals(SlotLayout.STATUS_EMPTY, slotWord(ring, 3, SlotLayout.STATUS_WORD));
  }

  @Test
  void refusesASlotIndexOverflowBeforePublishing() {
    byte[] ring = SlotLayout.encodeEmptyRing(4);
    byte[] before = ring.clone();
    PipelineException e = assertThrows(PipelineException.class,
        () -> new BatchDescriptor(0xFFFF_FFFFL, List.of(NOP, NOP)).publishInto(seg(ring)));
    assertTrue(e.getMessage().contains("overflows u32"), e.getMessage());
    assertArrayEquals(before, ring);
    assertEquals(0, new BatchDescriptor(0xFFFF_FFFFL, List.of()).publishInto(seg(ring)));
  }

  @Test
  void aLateFailurePublishesNothing() {
    byte[] ring = SlotLayout.encodeEmptyRing(4);
    setSlotWord(ring, 2, SlotLayout.STATUS_WORD, SlotLayout.STATUS_CLAIMED);
    byte[] before = ring.clone();
    assertThrows(PipelineException.class, () -> new BatchDescriptor(0, List.of(NOP, NOP, NOP)).publishInto(seg(ring)));
    assertThrows(PipelineException.class, () -> new BatchDescriptor(3, List.of(NOP, NOP)).publishInto(seg(ring)));
    assertThrows(PipelineException.class,
        () -> new BatchDescriptor(0, List.of(NOP, new SlotDescriptor.Single(0, Opcodes.MEMCPY, new int[13]))).publishInto(seg(ring)));
    assertArrayEquals(before, ring);
  }

  @Test
  void packedItemsPublishAsPackedSlots() {
    byte[] ring = SlotLayout.encodeEmptyRing(2);
    new BatchDescriptor(0, List.of(new SlotDescriptor.Packed(3, List.of(new PackedOp(9, new int[] {1, 2, 3}), new PackedOp(10, new int[] {4})))))
        .publishInto(seg(ring));
    assertEquals(Opcodes.PACKED_SLOT, slotWord(ring, 0, SlotLayout.OPCODE_WORD));
    assertEquals(3, slotWord(ring, 0, SlotLayout.TENANT_WORD));
  }

  @Test
  void windowBatchHasOneSlotPerPayloadRequiredFirst() {
    BatchDescriptor batch = BatchDescriptor.window(0, 0, Opcodes.NOP, 99, List.of(new int[] {1}, new int[] {2}), List.of(new int[] {3}));
    assertEquals(3, batch.items().size());
    assertArrayEquals(new int[] {99, BatchDescriptor.WINDOW_REQUIRED, 1}, batch.items().get(0).args());
    assertArrayEquals(new int[] {99, BatchDescriptor.WINDOW_REQUIRED, 2}, batch.items().get(1).args());
    assertArrayEquals(new int[] {99, BatchDescriptor.WINDOW_LOOKAHEAD, 3}, batch.items().get(2).args());
  }

  @Test
  void windowRefusesAPayloadThatLeavesNoRoomForTicketAndClass() {
    PipelineException e = assertThrows(PipelineException.class,
        () -> BatchDescriptor.window(0, 0, Opcodes.NOP, 1, List.of(new int[11]), List.of()));
    assertTrue(e.getMessage().contains("ticket plus class plus payload must fit in 12 u32 args"), e.getMessage());
  }
}
