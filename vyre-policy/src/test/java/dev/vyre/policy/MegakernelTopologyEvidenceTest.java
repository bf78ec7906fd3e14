package dev.vyre.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MegakernelTopologyEvidenceTest {

  private static MegakernelTopologyEvidence evidence(int density, boolean parity) {
    return new MegakernelTopologyEvidence(1, MegakernelQueuePressure.Light, density, density,
        MegakernelDispatchTopology.SparseFrontier, MegakernelGraphBlasSwitchClass.Sparse, 0, 16_384, parity);
  }

  @Test
  void completeNeedsBasisPointDensitiesAndParity() {
    assertTrue(evidence(10_000, true).isComplete());
    assertFalse(evidence(10_001, true).isComplete());
    assertFalse(evidence(0, false).isComplete());
  }

  @Test
  void unclampedDensityMakesPolicyEvidenceIncomplete() {
    MegakernelTopologyEvidence evidence = MegakernelLaunchPolicy.standard().recommendWithTopologyEvidence(
        MegakernelLaunchRequest.directBuilder(64, 64, 256).frontierDensityBps(20_000).build()).evidence();
    assertEquals(MegakernelDispatchTopology.DenseFrontier, evidence.selectedTopology());
    assertFalse(evidence.isComplete());
  }

  @Test
  void switchClasses() {
    assertEquals(MegakernelGraphBlasSwitchClass.Dense, MegakernelGraphBlasSwitchClass.of(MegakernelDispatchTopology.FusedDense));
    assertEquals(MegakernelGraphBlasSwitchClass.Hybrid,
        MegakernelGraphBlasSwitchClass.of(MegakernelDispatchTopology.HybridFrontier));
    assertEquals("memory_constrained", MegakernelGraphBlasSwitchClass.of(MegakernelDispatchTopology.MemoryConstrained).label());
    assertEquals("empty", MegakernelGraphBlasSwitchClass.of(MegakernelDispatchTopology.Empty).label());
  }
}
