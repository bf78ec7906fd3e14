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
    Watchdog watchdog = new Watchdog(STALL, 0, 0, 0);
    assertFalse(watchdog.due(Watchdog.CHECK_EVERY_NANOS), "not before a whole period has passed");
    assertTrue(watchdog.due(Watchdog.CHECK_EVERY_NANOS + 1));
    assertFalse(watchdog.due(Watchdog.CHECK_EVERY_NANOS + 2), "the next one is a period later");
    assertTrue(watchdog.due(2 * Watchdog.CHECK_EVERY_NANOS + 2));
  }

  @Test
  void tasksInFlightWithNothingFinishedOrFaultedForLongerThanTheTimeoutAreAStall() {
    Watchdog watchdog = new Watchdog(STALL, 7, 0, 0);
    assertFalse(watchdog.stalled(STALL / 2, 7, 0, 3));
    assertFalse(watchdog.stalled(STALL, 7, 0, 3), "exactly the timeout is not yet a stall");
    assertTrue(watchdog.stalled(STALL + 1, 7, 0, 3));
    assertEquals(2_000, watchdog.quietMillis(STALL + 1));
  }

  @Test
  void aFinishOrAFaultRestartsTheClock() {
    Watchdog watchdog = new Watchdog(STALL, 7, 0, 0);
    assertFalse(watchdog.stalled(STALL - MS, 8, 0, 3), "a task finished");
    assertFalse(watchdog.stalled(2 * STALL - 2 * MS, 8, 0, 3));
    assertTrue(watchdog.stalled(2 * STALL, 8, 0, 3));
    assertFalse(watchdog.stalled(3 * STALL, 8, 1, 3), "a task faulted: a fault, not a stall");
    assertFalse(watchdog.stalled(4 * STALL, 8, 1, 3), "the clock counts from the check that saw the fault");
  }

  @Test
  void anIdleKernelNeverStalls() {
    Watchdog watchdog = new Watchdog(STALL, 7, 0, 0);
    assertFalse(watchdog.stalled(10 * STALL, 7, 0, 0));
    assertFalse(watchdog.stalled(11 * STALL - MS, 7, 0, 1), "the quiet time counts from the last idle check");
    assertTrue(watchdog.stalled(11 * STALL + 1, 7, 0, 1));
  }

  /** The verdict each check asks is the seed's health_since, which telemetry reports for the same figures. */
  @Test
  void eachCheckAsksTheHealthVerdict() {
    assertTrue(KernelHealth.suspectedStall(1, 0, 0));
    assertFalse(KernelHealth.suspectedStall(0, 0, 0), "nothing queued");
    assertFalse(KernelHealth.suspectedStall(1, 1, 0), "something finished");
    assertFalse(KernelHealth.suspectedStall(1, 0, 1), "something faulted");
  }
}
