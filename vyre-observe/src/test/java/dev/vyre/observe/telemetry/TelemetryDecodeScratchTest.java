package dev.vyre.observe.telemetry;

import static dev.vyre.observe.telemetry.Snapshots.control;
import static dev.vyre.observe.telemetry.Snapshots.ring;
import static dev.vyre.observe.telemetry.Snapshots.slot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.wire.SlotLayout;
import org.junit.jupiter.api.Test;

class TelemetryDecodeScratchTest {

  @Test
  void capacitiesGrowOnceAndAreReused() {
    byte[] ring = ring(64);
    for (int i = 0; i < 64; i++) {
      slot(ring, i, SlotLayout.STATUS_PUBLISHED, 300 + i % 10, 0, i, 0);
    }
    int[] unsorted = {309, 308, 307, 306, 305, 304, 303, 302, 301, 300};
    TelemetryDecodeScratch scratch = new TelemetryDecodeScratch();
    RingTelemetry out = new RingTelemetry();
    RingTelemetry.tryDecodeWithWindowOpcodesInto(control(), ring, unsorted, out, scratch);
    int opcodeCapacity = scratch.windowOpcodeCapacity();
    int windowCapacity = scratch.windowSlotCapacity();
    assertEquals(10, opcodeCapacity);
    assertTrue(windowCapacity >= 64);
    RingTelemetry.tryDecodeWithWindowOpcodesInto(control(), ring, unsorted, out, scratch);
    assertEquals(opcodeCapacity, scratch.windowOpcodeCapacity());
    assertEquals(windowCapacity, scratch.windowSlotCapacity());
    assertEquals(64, out.windows().size());
  }
}
