package dev.vyre.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WatchdogTest {

  private static final long MS = 1_000_000L;
  private static final long STALL = 2_000 * MS;

  @Test
  void checksComeDueOncePerPeriod() {
    Watchdog watchdog = new Watchdog(STALL, 0, 0);
    assertFalse(watchdog.due(Watchdog.CHECK_EVERY_NANOS), "not before a whole period has passed");
    assertTrue(watchdog.due(Watchdog.CHECK_EVERY_NANOS + 1));
    assertFalse(watchdog.due(Watchdog.CHECK_EVERY_NANOS + 2), "the next one is a period later");
    assertTrue(watchdog.due(2 * Watchdog.CHECK_EVERY_NANOS + 2));
  }

  @Test
  void tasksWaitingWithNoClaimOrFinishForLongerThanTheTimeoutAreAStall() {
    Watchdog watchdog = new Watchdog(STALL, 7, 0);
    assertFalse(watchdog.stalled(STALL, 7, true), "exactly the timeout is not yet a stall");
    assertTrue(watchdog.stalled(STALL + 1, 7, true));
    assertEquals(2_000, watchdog.quietMillis(STALL + 1));
  }

  @Test
  void anyClaimOrFinishRestartsTheClock() {
    Watchdog watchdog = new Watchdog(STALL, 7, 0);
    assertFalse(watchdog.stalled(STALL - MS, 8, true), "the claim total moved");
    assertFalse(watchdog.stalled(2 * STALL - 2 * MS, 8, true));
    assertTrue(watchdog.stalled(2 * STALL, 8, true));
    watchdog.progress(3 * STALL);
    assertFalse(watchdog.stalled(4 * STALL, 8, true), "a retired ticket counts as progress");
  }

  @Test
  void anIdleKernelNeverStalls() {
    Watchdog watchdog = new Watchdog(STALL, 7, 0);
    assertFalse(watchdog.stalled(10 * STALL, 7, false));
    assertFalse(watchdog.stalled(11 * STALL - MS, 7, true), "the quiet time counts from the last idle check");
    assertTrue(watchdog.stalled(11 * STALL + 1, 7, true));
  }
}
