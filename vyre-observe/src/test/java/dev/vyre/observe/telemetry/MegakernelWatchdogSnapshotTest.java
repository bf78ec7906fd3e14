package dev.vyre.observe.telemetry;

import static dev.vyre.observe.telemetry.Snapshots.control;
import static dev.vyre.observe.telemetry.Snapshots.ring;
import static dev.vyre.observe.telemetry.Snapshots.setWord;
import static dev.vyre.observe.telemetry.Snapshots.slot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import org.junit.jupiter.api.Test;

class MegakernelWatchdogSnapshotTest {

  private static RingTelemetry snapshot(int done, int... statuses) {
    byte[] control = control();
    setWord(control, ControlLayout.DONE_COUNT, done);
    byte[] ring = ring(Math.max(statuses.length, 2));
    for (int i = 0; i < statuses.length; i++) {
      slot(ring, i, statuses[i], Opcodes.ATOMIC_ADD, 0);
    }
    return RingTelemetry.tryDecode(control, ring);
  }

  @Test
  void queuedWorkWithoutProgressIsASuspectedStall() {
    RingTelemetry previous = snapshot(7);
    RingTelemetry current = snapshot(7, SlotLayout.STATUS_PUBLISHED, SlotLayout.STATUS_EMPTY);
    assertEquals(new MegakernelWatchdogSnapshot(0, 1, 0, 0, 500_000, true), current.healthSince(previous));
  }

  @Test
  void progressClearsTheStall() {
    RingTelemetry previous = snapshot(7);
    RingTelemetry current = snapshot(9, SlotLayout.STATUS_PUBLISHED, SlotLayout.STATUS_EMPTY);
    assertEquals(new MegakernelWatchdogSnapshot(2, 1, 0, 0, 500_000, false), current.healthSince(previous));
  }

  @Test
  void faultedSlotIsNotAStall() {
    MegakernelWatchdogSnapshot health = snapshot(7, SlotLayout.STATUS_FAULT, SlotLayout.STATUS_CLAIMED).healthSince(snapshot(7));
    assertEquals(new MegakernelWatchdogSnapshot(0, 2, 1, 0, 0, false), health);
  }

  @Test
  void idleRingIsNotAStall() {
    assertEquals(false, snapshot(7).healthSince(snapshot(7)).suspectedStall());
  }

  @Test
  void doneCounterMovingBackwardsIsAnError() {
    PipelineException error = assertThrows(PipelineException.class, () -> snapshot(7).healthSince(snapshot(9)));
    assertEquals("megakernel done counter moved backwards from 9 to 7. Fix: treat counter reset/wrap as a new telemetry epoch.",
        error.fields().get("message"));
  }

  @Test
  void doneCounterIsComparedUnsigned() {
    assertEquals(1, snapshot(-1).healthSince(snapshot(-2)).doneDelta());
  }
}
