package dev.vyre.runtime.scan;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Little-endian u32 word access for the scan wire buffers (DFA table, hit buffer), so that every
 * reader and writer agrees on byte order and alignment without repeating layouts.
 */
final class WireWords {

  /** A wire word; unaligned so that heap-backed byte buffers can be read as well. */
  static final ValueLayout.OfInt WORD = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  /** Atomic access needs natural alignment; coordinates are (segment, byte offset). */
  static final VarHandle ATOMIC_WORD = ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle();

  private WireWords() {}

  static int get(MemorySegment segment, long wordIndex) {
    return segment.get(WORD, wordIndex << 2);
  }

  static void set(MemorySegment segment, long wordIndex, int value) {
    segment.set(WORD, wordIndex << 2, value);
  }
}
