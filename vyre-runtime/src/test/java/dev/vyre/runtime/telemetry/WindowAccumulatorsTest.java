package dev.vyre.runtime.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class WindowAccumulatorsTest {

  @Test
  void growsPastItsInitialTableAndKeepsEveryWindow() {
    WindowAccumulators windows = new WindowAccumulators();
    for (int ticket = 999; ticket >= 0; ticket--) {
      windows.add(ticket, 9, ticket + 1, 0, 1);
      windows.add(ticket, 9, 77, 1, 3);
    }
    assertEquals(1000, windows.size());
    long[] keys = windows.sortedKeys();
    for (int ticket = 0; ticket < 1000; ticket++) {
      assertEquals(new WindowTelemetry(ticket, ticket + 1, 9, 1, 1, 1, 0, 1, 0, 0, 0, 0), windows.window(keys[ticket]));
    }
    windows.clear();
    assertEquals(0, windows.size());
    windows.add(5, 1, 2, 7, 0);
    assertEquals(new WindowTelemetry(5, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0), windows.window(windows.sortedKeys()[0]));
  }
}
