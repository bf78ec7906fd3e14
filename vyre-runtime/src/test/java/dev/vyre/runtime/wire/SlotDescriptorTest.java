package dev.vyre.runtime.wire;

import static dev.vyre.runtime.wire.Wire.seg;
import static dev.vyre.runtime.wire.Wire.slotWord;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.wire.PackedSlotCodec.PackedOp;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/PORTS.md, "Host publication": single and packed slot descriptors. */
class SlotDescriptorTest {

  @Test
  void singlePublishesANormalSlot() {
    byte[] ring = SlotLayout.encodeEmptyRing(4);
    new SlotDescriptor.Single(7, Opcodes.STORE_U32, new int[] {11, 13}).publishInto(seg(ring), 1);
    assertEquals(SlotLayout.STATUS_PUBLISHED, slotWord(ring, 1, SlotLayout.STATUS_WORD));
    assertEquals(11, slotWord(ring, 1, 4));
    assertEquals(13, slotWord(ring, 1, 5));
  }

  @Test
  void packedUsesThePackedOpcodeAndEncoding() {
    byte[] ring = SlotLayout.encodeEmptyRing(2);
    List<PackedOp> ops = List.of(new PackedOp(9, new int[] {1, 2, 3}), new PackedOp(10, new int[] {4}));
    SlotDescriptor.Packed packed = new SlotDescriptor.Packed(3, ops);
    packed.publishInto(seg(ring), 0);
    assertEquals(Opcodes.PACKED_SLOT, slotWord(ring, 0, SlotLayout.OPCODE_WORD));
    assertArrayEquals(PackedSlotCodec.encode(ops.toArray(PackedOp[]::new)), packed.args());
  }

  @Test
  void aSingleSlotRespectsTheArgumentBudget() {
    byte[] ring = SlotLayout.encodeEmptyRing(1);
    PipelineException e = assertThrows(PipelineException.class,
        () -> new SlotDescriptor.Single(0, Opcodes.MEMCPY, new int[13]).publishInto(seg(ring), 0));
    assertEquals(PipelineException.Variant.InvalidArgument, e.variant());
  }
}
