package dev.vyre.policy.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The queue a control block describes, as the worker-group loop reads it. */
class QueueTelemetryTest {

  private static MemorySegment control(Arena arena) {
    return arena.allocate(4L * ControlLayout.CONTROL_MIN_WORDS, 8);
  }

  @Test
  void inFlightIsPublishedLessFinishedOverEveryLevel() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment control = control(arena);
      Words.set(control, ControlLayout.publishSeqWord(2), 100);
      Words.set(control, ControlLayout.publishSeqWord(4), 10);
      Words.set(control, ControlLayout.DONE_COUNT, 50);
      Words.set(control, ControlLayout.FAULT_COUNT, 5);
      Words.set(control, ControlLayout.CONTINUATION_COUNT, 7);
      assertEquals(new QueueSample(55, 7), QueueTelemetry.fromControl(control));
    }
  }

  /** CUDA's claim cursors run past the doorbells, or lag in the control block's mirror: they are not read. */
  @Test
  void claimCursorsDoNotCount() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment control = control(arena);
      Words.set(control, ControlLayout.publishSeqWord(2), 1000);
      Words.set(control, ControlLayout.claimSeqWord(2), 10);
      Words.set(control, ControlLayout.DONE_COUNT, 1000);
      assertEquals(new QueueSample(0, 0), QueueTelemetry.fromControl(control));
    }
  }

  /** Every counter wraps at 2^32. */
  @Test
  void countsWrapAround() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment control = control(arena);
      Words.set(control, ControlLayout.publishSeqWord(2), 5);
      Words.set(control, ControlLayout.DONE_COUNT, -10);
      assertEquals(new QueueSample(15, 0), QueueTelemetry.fromControl(control));
    }
  }
}
