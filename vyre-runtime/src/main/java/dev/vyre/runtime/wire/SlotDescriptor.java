package dev.vyre.runtime.wire;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * One slot to publish (vyre's {@code SlotDescriptor}): a plain slot, or a PACKED_SLOT holding
 * several inner operations. Both resolve to the tenant, opcode and argument words the ring gets.
 */
public sealed interface SlotDescriptor {

  int tenant();

  int opcode();

  /** The argument words as published; for a packed slot, its 12-word encoding. */
  int[] args();

  /** Publishes this slot into {@code ring} at {@code slot} with {@link RingPublisher#publishSlot}. */
  default void publishInto(MemorySegment ring, long slot) {
    RingPublisher.publishSlot(ring, slot, tenant(), opcode(), args());
  }

  /** A plain slot: opcode and up to 12 argument words. */
  record Single(int tenant, int opcode, int[] args) implements SlotDescriptor {}

  /** A PACKED_SLOT of inner operations (docs/PROTOCOL.md, "PACKED_SLOT"). */
  record Packed(int tenant, List<PackedSlotCodec.PackedOp> ops) implements SlotDescriptor {

    @Override
    public int opcode() {
      return Opcodes.PACKED_SLOT;
    }

    @Override
    public int[] args() {
      return PackedSlotCodec.encode(ops.toArray(PackedSlotCodec.PackedOp[]::new));
    }
  }
}
