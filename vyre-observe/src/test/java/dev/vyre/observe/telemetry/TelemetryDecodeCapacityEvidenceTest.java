package dev.vyre.observe.telemetry;

import static dev.vyre.observe.telemetry.Snapshots.control;
import static dev.vyre.observe.telemetry.Snapshots.ring;
import static dev.vyre.observe.telemetry.Snapshots.slot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.wire.SlotLayout;
import org.junit.jupiter.api.Test;

/** Capacity evidence of decodes into caller-owned storage (docs/PORTS.md, "Telemetry decoding"). */
class TelemetryDecodeCapacityEvidenceTest {

  private static final int ROUTE = 0xF101;

  /** vyre's route-window vector (docs/PORTS.md, "Route windows"): three slots of one window, ticket 7. */
  private static byte[] routeRing() {
    byte[] ring = ring(3);
    slot(ring, 0, SlotLayout.STATUS_PUBLISHED, ROUTE, 3, 7, 0, 42);
    slot(ring, 1, SlotLayout.STATUS_PUBLISHED, ROUTE, 3, 7, 1, 99);
    slot(ring, 2, SlotLayout.STATUS_PUBLISHED, ROUTE, 3, 7, 0, 123);
    return ring;
  }

  @Test
  void decodeIntoReportsCountsAndCapacities() {
    RingTelemetry out = new RingTelemetry();
    TelemetryDecodeScratch scratch = new TelemetryDecodeScratch();
    TelemetryDecodeCapacityEvidence evidence =
        RingTelemetry.tryDecodeWithWindowOpcodesInto(control(), routeRing(), new int[] {ROUTE, ROUTE}, out, scratch);
    assertEquals(1, evidence.schemaVersion());
    assertEquals(3, evidence.decodedSlotCount());
    assertEquals(1, evidence.decodedWindowCount());
    assertTrue(evidence.slotOutputCapacity() >= 3);
    assertTrue(evidence.windowOutputCapacity() >= 1);
    assertEquals(scratch.windowOpcodeCapacity(), evidence.windowOpcodeScratchCapacity());
    assertEquals(2, evidence.windowOpcodeScratchCapacity());
    assertEquals(scratch.windowAccumulatorCapacity(), evidence.windowAccumulatorCapacity());
    assertTrue(evidence.windowAccumulatorCapacity() >= 1);
    assertTrue(evidence.usesCallerOwnedScratch());
    assertTrue(evidence.isComplete());
  }

  @Test
  void capacitiesKeptFromALargerRingStillCoverASmallerOne() {
    RingTelemetry out = new RingTelemetry();
    TelemetryDecodeScratch scratch = new TelemetryDecodeScratch();
    byte[] big = ring(64);
    for (int i = 0; i < 64; i++) {
      slot(big, i, SlotLayout.STATUS_CLAIMED, ROUTE, 1, i, 0);
    }
    TelemetryDecodeCapacityEvidence first =
        RingTelemetry.tryDecodeWithWindowOpcodesInto(control(), big, new int[] {ROUTE}, out, scratch);
    assertEquals(64, first.decodedWindowCount());
    TelemetryDecodeCapacityEvidence second =
        RingTelemetry.tryDecodeWithWindowOpcodesInto(control(), routeRing(), new int[] {ROUTE}, out, scratch);
    assertEquals(3, second.decodedSlotCount());
    assertEquals(1, second.decodedWindowCount());
    assertEquals(first.slotOutputCapacity(), second.slotOutputCapacity());
    assertEquals(first.windowOutputCapacity(), second.windowOutputCapacity());
    assertEquals(first.windowAccumulatorCapacity(), second.windowAccumulatorCapacity());
    assertTrue(second.isComplete());
  }

  @Test
  void withoutWindowOpcodesNoWindowsAreDecoded() {
    TelemetryDecodeCapacityEvidence evidence = RingTelemetry.decodeWithWindowOpcodesInto(control(), routeRing(),
        new int[0], new RingTelemetry(), new TelemetryDecodeScratch());
    assertEquals(3, evidence.decodedSlotCount());
    assertEquals(0, evidence.decodedWindowCount());
    assertTrue(evidence.isComplete());
  }

  @Test
  void completenessNeedsTheSchemaCallerScratchAndEveryCapacity() {
    assertTrue(new TelemetryDecodeCapacityEvidence(1, 4, 2, 4, 2, 0, 2, true).isComplete());
    assertFalse(new TelemetryDecodeCapacityEvidence(2, 4, 2, 4, 2, 0, 2, true).isComplete());
    assertFalse(new TelemetryDecodeCapacityEvidence(1, 4, 2, 4, 2, 0, 2, false).isComplete());
    assertFalse(new TelemetryDecodeCapacityEvidence(1, 4, 2, 3, 2, 0, 2, true).isComplete());
    assertFalse(new TelemetryDecodeCapacityEvidence(1, 4, 2, 4, 1, 0, 2, true).isComplete());
    assertFalse(new TelemetryDecodeCapacityEvidence(1, 4, 2, 4, 2, 0, 1, true).isComplete());
  }
}
