package dev.vyre.observe.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** The runtime IO evidence vector of docs/PORTS.md, "Runtime IO evidence". */
class MegakernelRuntimeEvidenceTest {

  static MegakernelRuntimeEvidence vector() {
    return MegakernelRuntimeEvidence.of(4096, 1024, 3072, new RingOccupancy(1, 2, 3, 4, 5, 6, 7, 8, 9), 11, 13);
  }

  @Test
  void fullyMeasuredVectorIsComplete() {
    MegakernelRuntimeEvidence evidence = vector();
    assertEquals(1, evidence.schemaVersion());
    assertTrue(evidence.isComplete());
    assertEquals(List.of(), evidence.missingMetricFamilies());
    assertEquals(45, evidence.ringOccupancy().totalSlots());
    assertEquals(40, evidence.ringOccupancy().queueDepth());
    assertEquals(7500, evidence.hostCopyAvoidanceBps());
    assertEquals(11, evidence.controlDecodeNs());
    assertEquals(13, evidence.ringDecodeNs());
  }

  @Test
  void unmeasuredFamiliesAreListedInVyresOrder() {
    MegakernelRuntimeEvidence evidence = vector().withCoverage(new MegakernelRuntimeCoverage(true, false, true, false));
    assertEquals(List.of("control", "residency"), evidence.missingMetricFamilies());
    assertFalse(evidence.isComplete());
    assertEquals(List.of("ring", "control", "copy", "residency"),
        vector().withCoverage(new MegakernelRuntimeCoverage(false, false, false, false)).missingMetricFamilies());
  }

  @Test
  void anotherSchemaIsNotComplete() {
    MegakernelRuntimeEvidence v = vector();
    assertFalse(new MegakernelRuntimeEvidence(2, v.residentDeviceBytes(), v.hostCopyBytes(), v.hostCopyAvoidedBytes(),
        v.ringOccupancy(), v.controlDecodeNs(), v.ringDecodeNs(), v.coverage()).isComplete());
  }

  @Test
  void avoidanceIsZeroWithNothingCrossingAndExactNearU64Max() {
    RingOccupancy none = RingOccupancy.EMPTY;
    assertEquals(0, MegakernelRuntimeEvidence.of(0, 0, 0, none, 0, 0).hostCopyAvoidanceBps());
    assertEquals(10_000, MegakernelRuntimeEvidence.of(0, 0, 1, none, 0, 0).hostCopyAvoidanceBps());
    assertEquals(0, MegakernelRuntimeEvidence.of(0, 1, 0, none, 0, 0).hostCopyAvoidanceBps());
    // u64::MAX each way: neither the sum nor the product fits u64, yet exactly half is avoided.
    assertEquals(5_000, MegakernelRuntimeEvidence.of(0, -1, -1, none, 0, 0).hostCopyAvoidanceBps());
    assertEquals(10_000, MegakernelRuntimeEvidence.of(0, 0, -1, none, 0, 0).hostCopyAvoidanceBps());
  }

  /** Basis points never exceed 10000 and grow with the avoided share. */
  @Property
  void avoidanceIsABoundedShare(@ForAll long copied, @ForAll long avoided) {
    int bps = MegakernelRuntimeEvidence.of(0, copied, avoided, RingOccupancy.EMPTY, 0, 0).hostCopyAvoidanceBps();
    assertTrue(bps >= 0 && bps <= 10_000, () -> Integer.toString(bps));
    if (Long.compareUnsigned(avoided, copied) > 0) {
      assertTrue(bps >= 5_000);
    }
  }
}
