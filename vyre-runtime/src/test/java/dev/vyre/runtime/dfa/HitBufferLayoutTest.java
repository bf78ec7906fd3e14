package dev.vyre.runtime.dfa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.ProtocolException;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;

class HitBufferLayoutTest {

  private static MemorySegment buffer(long capacity) {
    MemorySegment hits = Arena.ofAuto().allocate(HitBufferLayout.byteSize(capacity), 4096);
    HitBufferLayout.init(hits, capacity);
    return hits;
  }

  @Test
  void layoutIsAHeaderOfFourWordsThenFourWordRecords() {
    assertEquals(16 + 3 * 16, HitBufferLayout.byteSize(3));
    assertEquals(4, HitBufferLayout.recordWord(0, HitBufferLayout.INPUT_ID_FIELD));
    assertEquals(4 + 8 + 3, HitBufferLayout.recordWord(2, HitBufferLayout.PATTERN_ID_FIELD));
    MemorySegment hits = buffer(3);
    assertEquals(0, HitBufferLayout.cursor(hits));
    assertEquals(3, HitBufferLayout.capacity(hits));
    HitBufferLayout.validate(hits, "hits");
  }

  @Test
  void readsRecordsAsUnsignedValues() {
    MemorySegment hits = buffer(2);
    Words.set(hits, HitBufferLayout.CURSOR_WORD, 1);
    Words.set(hits, 4, 0xFFFF_FFFE);
    Words.set(hits, 5, 0x8000_0001);
    Words.set(hits, 6, 0x0000_0002);
    Words.set(hits, 7, 9);
    assertEquals(List.of(new Hit(0xFFFF_FFFE, 0x2_8000_0001L, 9)), HitBufferLayout.readAll(hits));
  }

  @Test
  void overflowIsCursorPastCapacity() {
    MemorySegment hits = buffer(2);
    Words.set(hits, HitBufferLayout.CURSOR_WORD, 2);
    assertFalse(HitBufferLayout.overflowed(hits));
    Words.set(hits, HitBufferLayout.CURSOR_WORD, 5);
    assertTrue(HitBufferLayout.overflowed(hits));
    assertEquals(2, HitBufferLayout.storedCount(hits));
    HitBufferLayout.reset(hits);
    assertEquals(0, HitBufferLayout.cursor(hits));
    assertEquals(2, HitBufferLayout.capacity(hits));
  }

  @Test
  void rejectsABufferShorterThanItsCapacity() {
    MemorySegment hits = buffer(2);
    Words.set(hits, HitBufferLayout.CAPACITY_WORD, 3);
    ProtocolException e = assertThrows(ProtocolException.class, () -> HitBufferLayout.validate(hits, "hits"));
    assertTrue(e.getMessage().startsWith("hits is missing word 15 (byte length 48). Fix: "), e.getMessage());
    assertThrows(ProtocolException.class, () -> HitBufferLayout.init(hits, 3));
    assertThrows(ProtocolException.class, () -> HitBufferLayout.validate(hits.asSlice(0, 12), "hits"));
    assertThrows(ProtocolException.class, () -> HitBufferLayout.validate(hits.asSlice(0, 18), "hits"));
    Words.set(hits, HitBufferLayout.CAPACITY_WORD, 2);
    Words.set(hits, 3, 1);
    ProtocolException reserved = assertThrows(ProtocolException.class, () -> HitBufferLayout.validate(hits, "hits"));
    assertEquals(3L, reserved.fields().get("word_idx"));
  }
}
