package dev.vyre.runtime.dfa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.driver.error.ProtocolException;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class MatchCountLayoutTest {

  @Test
  void countersAreAlignedU64sAfterAFourWordHeader() {
    assertEquals(16 + 3 * 8, MatchCountLayout.byteSize(3));
    assertEquals(4, MatchCountLayout.counterWord(0));
    assertEquals(8, MatchCountLayout.counterWord(2));
    MemorySegment counts = Arena.ofAuto().allocate(MatchCountLayout.byteSize(3), 8);
    counts.fill((byte) 0x7F);
    MatchCountLayout.init(counts, 3);
    assertEquals(3, MatchCountLayout.counters(counts));
    assertEquals(0, Words.get(counts, 1));
    assertEquals(0, MatchCountLayout.counter(counts, 2));
    Words.getAndAddLong(counts, MatchCountLayout.counterWord(1), 0x1_0000_0002L);
    assertEquals(0x1_0000_0002L, MatchCountLayout.counter(counts, 1));
  }

  @Test
  void initRefusesAResourceTooShortForItsCounters() {
    MemorySegment counts = Arena.ofAuto().allocate(MatchCountLayout.byteSize(2), 8);
    assertThrows(ProtocolException.class, () -> MatchCountLayout.init(counts, 3));
  }
}
