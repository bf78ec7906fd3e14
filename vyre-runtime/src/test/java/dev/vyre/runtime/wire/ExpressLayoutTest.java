package dev.vyre.runtime.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** The express lane's byte layout and stamps (ExpressLayout, docs/PROTOCOL.md). */
class ExpressLayoutTest {

  private static int[] slotWords(int seed) {
    int[] words = new int[SlotLayout.SLOT_WORDS];
    for (int w = 0; w < words.length; w++) {
      words[w] = seed * 1000 + w - (w == 7 ? 2_000_000_000 : 0);
    }
    return words;
  }

  @Test
  void linesInterleaveTwoWordsWithTheirStamp() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment ring = arena.allocate(SlotLayout.ringByteLength(4), 64);
      MemorySegment express = arena.allocate(ExpressLayout.byteLength(4), 64);
      Words.copy(slotWords(2), 0, ring, SlotLayout.slotBase(2), SlotLayout.SLOT_WORDS);
      ExpressLayout.write(express, ring, 2, 0xCAFE);
      // Line i of slot 2 at byte 2*128 + 16i: (word 2i, stamp, word 2i+1, stamp), little-endian.
      for (int i = 0; i < ExpressLayout.LINES_PER_SLOT; i++) {
        long line = 2L * ExpressLayout.SLOT_BYTES + (long) i * ExpressLayout.LINE_BYTES;
        assertEquals(slotWords(2)[2 * i], express.get(ValueLayout.JAVA_INT, line));
        assertEquals(0xCAFE, express.get(ValueLayout.JAVA_INT, line + 4));
        assertEquals(slotWords(2)[2 * i + 1], express.get(ValueLayout.JAVA_INT, line + 8));
        assertEquals(0xCAFE, express.get(ValueLayout.JAVA_INT, line + 12));
      }
      assertEquals(0, express.get(ValueLayout.JAVA_LONG, 0), "other slots untouched");
      int[] read = new int[SlotLayout.SLOT_WORDS];
      assertTrue(ExpressLayout.read(express, 2, 0xCAFE, read));
      assertArrayEquals(slotWords(2), read);
      assertFalse(ExpressLayout.read(express, 2, 0xCAFF, read), "another ticket's stamp");
    }
  }

  @Test
  void aTornOrClearedCopyFailsTheCheck() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment ring = arena.allocate(SlotLayout.ringByteLength(1), 64);
      MemorySegment express = arena.allocate(ExpressLayout.byteLength(1), 64);
      Words.copy(slotWords(1), 0, ring, 0, SlotLayout.SLOT_WORDS);
      ExpressLayout.write(express, ring, 0, 7);
      // The last unit still from an older ticket: a reader saw a copy half written.
      express.set(ValueLayout.JAVA_INT, ExpressLayout.SLOT_BYTES - 4, 6);
      assertFalse(ExpressLayout.read(express, 0, 7, new int[SlotLayout.SLOT_WORDS]));
      ExpressLayout.write(express, ring, 0, 7);
      ExpressLayout.clear(express, 0);
      assertFalse(ExpressLayout.read(express, 0, 7, new int[SlotLayout.SLOT_WORDS]));
    }
  }

  @Test
  void onlyAWrittenCopyIsHeld() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment ring = arena.allocate(SlotLayout.ringByteLength(2), 64);
      MemorySegment express = arena.allocate(ExpressLayout.byteLength(2), 64);
      ExpressLayout.write(express, ring, 1, 9);
      assertFalse(ExpressLayout.holdsCopy(express, 0));
      assertTrue(ExpressLayout.holdsCopy(express, 1));
      ExpressLayout.clear(express, 1);
      assertFalse(ExpressLayout.holdsCopy(express, 1));
    }
  }

  @Test
  void stampsAreNeverZeroAndDifferForTicketsThatShareASlot() {
    assertEquals(1, ExpressLayout.stamp(0));
    assertEquals(-1, ExpressLayout.stamp(0xFFFF_FFFEL), "2^32 - 2 maps to the largest stamp, 0xFFFFFFFF");
    assertEquals(1, ExpressLayout.stamp(0xFFFF_FFFFL), "the stamps wrap after 2^32 - 1 tickets, skipping 0");
    for (long ticket : new long[] {0, 5, 0xFFFF_FFFEL, 0xFFFF_FFFFL, 1L << 40, Long.MAX_VALUE}) {
      assertNotEquals(0, ExpressLayout.stamp(ticket), "stamp of " + ticket);
      for (int length : new int[] {1, 2, 3, 1024, 1 << 20}) {
        assertNotEquals(ExpressLayout.stamp(ticket), ExpressLayout.stamp(ticket + length), ticket + " and " + (ticket + length));
      }
    }
  }
}
