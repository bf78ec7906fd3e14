package dev.vyre.observe.telemetry;

import static dev.vyre.observe.telemetry.Snapshots.control;
import static dev.vyre.observe.telemetry.Snapshots.ring;
import static dev.vyre.observe.telemetry.Snapshots.setWord;
import static dev.vyre.observe.telemetry.Snapshots.slot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import org.junit.jupiter.api.Test;

class SketchTelemetryTest {

  private static RingTelemetry vectorTelemetry() {
    byte[] control = control();
    setWord(control, ControlLayout.metricWord(Opcodes.ATOMIC_ADD), 9);
    setWord(control, ControlLayout.metricWord(Opcodes.STORE_U32), 2);
    byte[] ring = ring(6);
    slot(ring, 0, SlotLayout.STATUS_PUBLISHED, Opcodes.ATOMIC_ADD, 1);
    slot(ring, 1, SlotLayout.STATUS_CLAIMED, Opcodes.ATOMIC_ADD, 1);
    slot(ring, 2, SlotLayout.STATUS_PUBLISHED, Opcodes.STORE_U32, 2);
    slot(ring, 3, SlotLayout.STATUS_DONE, Opcodes.DFA_STEP, 2);
    return RingTelemetry.tryDecode(control, ring);
  }

  @Test
  void sketchesOpcodesTenantsStatusesAndMetrics() {
    SketchTelemetry sketch = vectorTelemetry().sketch(4, 128);
    assertEquals(6, sketch.totalSlots());
    assertEquals(3, sketch.activeSlots());
    assertTrue(sketch.ringOpcode().estimate(Opcodes.ATOMIC_ADD) >= 2);
    assertEquals(0, sketch.activeOpcode().estimate(Opcodes.DFA_STEP));
    assertTrue(sketch.tenant().estimate(1) >= 2);
    assertTrue(sketch.status().estimate(SlotLayout.STATUS_PUBLISHED) >= 2);
    assertTrue(sketch.dispatchMetrics().estimate(Opcodes.ATOMIC_ADD) >= 9);
  }

  @Test
  void rebuildingWithTheSameShapeDoesNotReallocate() {
    RingTelemetry telemetry = vectorTelemetry();
    SketchTelemetry sketch = new SketchTelemetry();
    telemetry.sketchInto(4, 128, sketch);
    CountMinSketch ringOpcode = sketch.ringOpcode();
    int capacity = ringOpcode.capacity();
    telemetry.sketchInto(4, 128, sketch);
    telemetry.sketchInto(3, 16, sketch);
    assertEquals(capacity, sketch.ringOpcode().capacity());
    assertEquals(ringOpcode, sketch.ringOpcode());
    assertEquals(6, sketch.totalSlots());
    assertTrue(sketch.ringOpcode().estimate(Opcodes.ATOMIC_ADD) >= 2);
    assertTrue(sketch.ringOpcode().estimate(Opcodes.ATOMIC_ADD) <= 6);
  }
}
