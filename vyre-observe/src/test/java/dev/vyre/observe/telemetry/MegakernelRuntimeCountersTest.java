package dev.vyre.observe.telemetry;

import static dev.vyre.observe.telemetry.Snapshots.control;
import static dev.vyre.observe.telemetry.Snapshots.ring;
import static dev.vyre.observe.telemetry.Snapshots.setWord;
import static dev.vyre.observe.telemetry.Snapshots.slot;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import org.junit.jupiter.api.Test;

class MegakernelRuntimeCountersTest {

  @Test
  void aggregatesQueueIdleFairnessAndDrainCounters() {
    byte[] control = control(7);
    setWord(control, ControlLayout.DONE_COUNT, 7);
    setWord(control, ControlLayout.TENANT_FAIRNESS_BASE, 3);
    setWord(control, ControlLayout.TENANT_FAIRNESS_BASE + 1, 9);
    setWord(control, ControlLayout.PRIORITY_FAIRNESS_BASE, 5);
    byte[] ring = ring(4);
    slot(ring, 0, SlotLayout.STATUS_REQUEUE, Opcodes.NOP, 0);
    slot(ring, 1, SlotLayout.STATUS_DONE, Opcodes.NOP, 0);
    slot(ring, 2, SlotLayout.STATUS_PUBLISHED, Opcodes.ATOMIC_ADD, 11);
    MegakernelRuntimeCounters counters = RingTelemetry.tryDecode(control, ring).runtimeCounters();
    assertEquals(new MegakernelRuntimeCounters(4, 2, 1, 250_000, 5000, 7500, 7, 1, 12, 6, 5, 1, 0), counters);
  }

  @Test
  void emptyRingHasZeroRatios() {
    MegakernelRuntimeCounters counters = RingTelemetry.tryDecode(control(), ring(0)).runtimeCounters();
    assertEquals(new MegakernelRuntimeCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), counters);
  }

  @Test
  void idleRingIsAMillionPpmAndSkewIgnoresZeroTenants() {
    byte[] control = control();
    setWord(control, ControlLayout.TENANT_FAIRNESS_BASE + 5, -1);
    MegakernelRuntimeCounters counters = RingTelemetry.tryDecode(control, ring(3)).runtimeCounters();
    assertEquals(1_000_000, counters.gpuIdlePpm());
    assertEquals(0, counters.tenantFairnessSkew());
    assertEquals(0xFFFF_FFFFL, counters.tenantFairnessTotal());
  }

  @Test
  void densityIsFlooredAndClampedToU16() {
    assertEquals(3333, MegakernelRuntimeCounters.densityBps(1, 3));
    assertEquals(65_535, MegakernelRuntimeCounters.densityBps(7, 1));
    assertEquals(0, MegakernelRuntimeCounters.densityBps(7, 0));
  }

  @Test
  void faultAndUnknownSlotsCountTowardDepth() {
    byte[] ring = ring(4);
    slot(ring, 0, SlotLayout.STATUS_FAULT, 0, 0);
    slot(ring, 1, 77, 0, 0);
    MegakernelRuntimeCounters counters = RingTelemetry.tryDecode(control(), ring).runtimeCounters();
    assertEquals(2, counters.queueDepth());
    assertEquals(1, counters.faultSlots());
    assertEquals(5000, counters.frontierDensityBps());
  }
}
