package dev.vyre.driver.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Scratch capacities (docs/PORTS.md, "Barrier planner"): reported as vyre does and never shrinking. */
class MegakernelBarrierScratchTest {

  @Test
  void capacitiesStartEmptyAndFollowTheShape() {
    MegakernelBarrierScratch scratch = new MegakernelBarrierScratch();
    assertEquals(0, scratch.waveCapacity());
    assertEquals(0, scratch.dependencyCapacity());
    MegakernelBarrierScratch sized = MegakernelBarrierScratch.tryWithCapacity(3, 2);
    assertEquals(3, sized.waveCapacity());
    assertEquals(2, sized.dependencyCapacity());
  }

  @Test
  void capacitiesNeverShrink() {
    MegakernelBarrierScratch scratch = MegakernelBarrierScratch.tryWithCapacity(100, 50);
    MegakernelBarrierPlanner.planMegakernelBarriersWithScratch(4, MegakernelWaveDependencies.of(0, 1), scratch);
    assertEquals(100, scratch.waveCapacity());
    assertEquals(50, scratch.dependencyCapacity());
  }

  @Test
  void waveCountPlusOneMustFit() {
    MegakernelBarrierPlanException error = assertThrows(MegakernelBarrierPlanException.class,
        () -> MegakernelBarrierScratch.tryWithCapacity(-1L, 0));
    assertEquals(MegakernelBarrierPlanException.Variant.ByteCountOverflow, error.variant());
    assertEquals("barrier scratch wave offsets", error.fields().get("field"));
    assertEquals("megakernel barrier planner overflowed while computing barrier scratch wave offsets. Fix: shard the "
        + "dependency graph before barrier planning.", error.display());
  }
}
