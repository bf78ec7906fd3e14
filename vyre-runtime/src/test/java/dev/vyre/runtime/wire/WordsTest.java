package dev.vyre.runtime.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class WordsTest {

  @Test
  void wordsAreLittleEndian() {
    assertArrayEquals(new byte[] {0x04, 0x03, 0x02, 0x01, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}, Words.bytesOf(0x01020304, -1));
    assertEquals(0x01020304, Words.get(MemorySegment.ofArray(Words.bytesOf(7, 0x01020304)), 1));
  }

  @Test
  void orderedAccessWorksOnByteArraysAndNativeMemory() {
    byte[] bytes = new byte[16];
    MemorySegment heap = MemorySegment.ofArray(bytes);
    Words.setRelease(heap, 3, 0xCAFE);
    assertEquals(0xCAFE, Words.getAcquire(heap, 3));
    assertEquals(0xCAFE, Words.get(heap, 3));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment ring = arena.allocate(16, 4);
      Words.setRelease(ring, 1, 42);
      assertEquals(42, Words.getAcquire(ring, 1));
      MemorySegment odd = arena.allocate(20, 4).asSlice(1, 16);
      Words.setRelease(odd, 2, 7);
      assertEquals(7, Words.getAcquire(odd, 2));
    }
  }
}
