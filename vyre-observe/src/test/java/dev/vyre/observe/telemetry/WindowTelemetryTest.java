package dev.vyre.observe.telemetry;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WindowTelemetryTest {

  @Test
  void activeWhileAnySlotIsInFlight() {
    assertTrue(new WindowTelemetry(1, 0, 9, 1, 0, 1, 0, 0, 0, 0, 0, 0).isActive());
    assertTrue(new WindowTelemetry(1, 0, 9, 1, 0, 0, 1, 0, 0, 0, 0, 0).isActive());
    assertTrue(new WindowTelemetry(1, 0, 9, 1, 0, 0, 0, 0, 1, 0, 0, 0).isActive());
    assertTrue(new WindowTelemetry(1, 0, 9, 1, 0, 0, 0, 0, 0, 1, 0, 0).isActive());
    assertTrue(new WindowTelemetry(1, 0, 9, 1, 0, 0, 0, 0, 0, 0, 1, 0).isActive());
  }

  @Test
  void doneAndFaultDoNotKeepAWindowActive() {
    assertFalse(new WindowTelemetry(1, 0, 9, 2, 0, 0, 0, 1, 0, 0, 0, 1).isActive());
  }
}
