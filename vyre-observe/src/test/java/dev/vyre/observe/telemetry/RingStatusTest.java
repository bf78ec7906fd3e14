package dev.vyre.observe.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.wire.SlotStatus;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class RingStatusTest {

  @Test
  void namesAndKindsOfTheEightCodes() {
    List<String> names = List.of("Empty", "Published", "Claimed", "Done", "WaitIo", "Yield", "Requeue", "Fault");
    for (int raw = 0; raw < 8; raw++) {
      RingStatus status = RingStatus.of(raw);
      assertEquals(names.get(raw), status.variantName());
      assertEquals(SlotStatus.of(raw), status.kind());
      assertFalse(status.isUnknown());
      assertSame(status, RingStatus.of(raw));
    }
  }

  @Test
  void activeMeansInFlightButNotFaulted() {
    List<Integer> active = List.of(1, 2, 4, 5, 6);
    for (int raw = -1; raw < 10; raw++) {
      assertEquals(active.contains(raw), RingStatus.of(raw).isActive(), "raw " + raw);
    }
  }

  @Test
  void unknownKeepsTheRawWord() {
    RingStatus status = RingStatus.of(0xFFFF_FFF0);
    assertTrue(status.isUnknown());
    assertEquals("Unknown", status.variantName());
    assertEquals("Unknown(4294967280)", status.toString());
    assertEquals(SlotStatus.UNKNOWN, status.kind());
  }

  @Property
  void rawIsTheInverseOfDecoding(@ForAll int raw) {
    assertEquals(raw, RingStatus.of(raw).raw());
  }
}
