package dev.vyre.runtime.wire;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.VyreException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** Byte-buffer helpers and the "only typed errors" check shared by the wire descriptor tests. */
final class Wire {

  private Wire() {}

  static MemorySegment seg(byte[] bytes) {
    return MemorySegment.ofArray(bytes);
  }

  /** A native, 64-byte-aligned copy of {@code bytes} (what kernels share), freed with the arena. */
  static MemorySegment nativeCopy(Arena arena, byte[] bytes) {
    MemorySegment segment = arena.allocate(Math.max(bytes.length, 1), 64).asSlice(0, bytes.length);
    segment.copyFrom(MemorySegment.ofArray(bytes));
    return segment;
  }

  static int word(byte[] bytes, long index) {
    return Words.get(seg(bytes), index);
  }

  static void setWord(byte[] bytes, long index, int value) {
    Words.set(seg(bytes), index, value);
  }

  static int slotWord(byte[] ring, long slot, int slotLocalWord) {
    return word(ring, SlotLayout.slotBase(slot) + slotLocalWord);
  }

  static void setSlotWord(byte[] ring, long slot, int slotLocalWord, int value) {
    setWord(ring, SlotLayout.slotBase(slot) + slotLocalWord, value);
  }

  /** Runs {@code action}; it may succeed or throw a typed error whose message ends in a Fix hint, nothing else. */
  static void onlyTyped(Runnable action) {
    try {
      action.run();
    } catch (VyreException e) {
      assertTrue(e.getMessage().contains("Fix: "), e.getMessage());
    }
  }
}
