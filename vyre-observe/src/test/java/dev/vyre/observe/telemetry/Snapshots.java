package dev.vyre.observe.telemetry;

import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;

/** Builds control and ring byte buffers for telemetry tests, as vyre's tests build them. */
final class Snapshots {

  private Snapshots() {}

  /** vyre's {@code encode_control(false, tenantCount, 0)}: 640 bytes. */
  static byte[] control(int tenantCount) {
    return ControlLayout.encode(false, tenantCount, 0);
  }

  static byte[] control() {
    return control(1);
  }

  static byte[] ring(int slots) {
    return new byte[slots * SlotLayout.SLOT_BYTES];
  }

  static void setWord(byte[] buffer, int word, int value) {
    Words.set(MemorySegment.ofArray(buffer), word, value);
  }

  /** Writes slot {@code slot}: status, opcode, tenant, priority NORMAL, then the given args. */
  static void slot(byte[] ring, int slot, int status, int opcode, int tenant, int... args) {
    MemorySegment segment = MemorySegment.ofArray(ring);
    long base = SlotLayout.slotBase(slot);
    Words.set(segment, base + SlotLayout.STATUS_WORD, status);
    Words.set(segment, base + SlotLayout.OPCODE_WORD, opcode);
    Words.set(segment, base + SlotLayout.TENANT_WORD, tenant);
    Words.set(segment, base + SlotLayout.PRIORITY_WORD, 2);
    for (int i = 0; i < args.length; i++) {
      Words.set(segment, base + SlotLayout.ARG0_WORD + i, args[i]);
    }
  }
}
