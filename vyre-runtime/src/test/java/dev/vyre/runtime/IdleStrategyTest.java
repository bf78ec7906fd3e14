package dev.vyre.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.ring.RingPartition;
import org.junit.jupiter.api.Test;

/** The idle strategies' schedules, advanced with {@code skipRound} where a real park would only slow the test. */
class IdleStrategyTest {

  @Test
  void theHostsCursorWaitSpinsYieldsThenParksFiftyDoublingToFiveHundredMicroseconds() {
    IdleStrategy.Backoff wait = RingPartition.cursorWait();
    for (int round = 0; round < 400; round++) {
      assertEquals(round, wait.rounds());
      assertEquals(round >= 256, wait.parking(), "round " + round);
      if (round >= 256) {
        assertEquals(Math.min(50_000L << Math.min(round - 256, 4), 500_000L), wait.nextParkNanos(), "round " + round);
      }
      wait.skipRound();
    }
    wait.reset();
    assertEquals(0, wait.rounds());
    assertFalse(wait.parking());
    assertEquals(50_000, wait.nextParkNanos());
  }

  @Test
  void workResetsTheSpellAndNoWorkIdles() {
    IdleStrategy.Backoff wait = IdleStrategy.backoff(2, 1, 1_000, 1_000);
    wait.idle(0);
    wait.idle(0);
    wait.idle(0);
    assertTrue(wait.parking());
    wait.idle(1);
    assertEquals(0, wait.rounds());
    assertFalse(wait.parking());
  }

  @Test
  void skipToParkingParksUntilTheNextReset() {
    IdleStrategy.Backoff wait = IdleStrategy.timedBackoff(10_000_000_000L, 0, 1_000, 4_000);
    assertFalse(wait.parking(), "ten seconds of spinning ahead");
    wait.idle();
    wait.skipToParking();
    assertTrue(wait.parking());
    wait.idle();
    assertEquals(2_000, wait.nextParkNanos(), "the park time doubles on each park");
    wait.reset();
    assertFalse(wait.parking());
  }

  @Test
  void aTimedBackoffParksOnceItsTimeHasPassed() throws InterruptedException {
    IdleStrategy.Backoff wait = IdleStrategy.timedBackoff(1_000_000, 1_000_000, 1_000, 1_000);
    Thread.sleep(20);
    assertTrue(wait.parking());
    wait.idle();
    assertTrue(wait.parking(), "the park phase lasts until a reset");
  }

  @Test
  void parkTimesStopDoublingAtTheMostWithoutOverflow() {
    IdleStrategy.Backoff wait = IdleStrategy.backoff(0, 0, 3, Long.MAX_VALUE);
    long previous = 0;
    for (int round = 0; round < 100; round++) {
      long park = wait.nextParkNanos();
      assertTrue(park >= previous && park > 0, "round " + round + ": " + park);
      previous = park;
      wait.skipRound();
    }
  }

  @Test
  void theStatelessStrategiesIdleAndRefuseNoTime() {
    IdleStrategy.busySpin().idle();
    IdleStrategy.yielding().idle(0);
    IdleStrategy.sleeping(1_000).idle();
    assertThrows(IllegalArgumentException.class, () -> IdleStrategy.sleeping(0));
    assertThrows(IllegalArgumentException.class, () -> IdleStrategy.backoff(1, 1, 10, 5));
    assertThrows(IllegalArgumentException.class, () -> IdleStrategy.timedBackoff(-1, 0, 10, 10));
  }
}
