package dev.vyre.runtime.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** docs/PROTOCOL.md, "Slot status": status codes; anything else decodes as UNKNOWN. */
class SlotStatusTest {

  @Test
  void decodesEachCodeAndUnknown() {
    for (int code = 0; code < 8; code++) {
      assertEquals(code, SlotStatus.of(code).code());
    }
    assertEquals(SlotStatus.UNKNOWN, SlotStatus.of(8));
    assertEquals(SlotStatus.UNKNOWN, SlotStatus.of(-1));
    assertEquals(SlotStatus.UNKNOWN, SlotStatus.of(0x10));
  }

  @Test
  void publishedYieldAndRequeueAreSchedulable() {
    for (SlotStatus status : SlotStatus.values()) {
      assertEquals(EnumSet.of(SlotStatus.PUBLISHED, SlotStatus.YIELD, SlotStatus.REQUEUE).contains(status), status.isSchedulable(), status.name());
    }
    assertTrue(SlotStatus.DONE.isFinal());
    assertTrue(SlotStatus.FAULT.isFinal());
    assertTrue(SlotStatus.WAIT_IO.isFinal());
    assertFalse(SlotStatus.CLAIMED.isFinal());
  }
}
