package dev.vyre.driver.planner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The flat plan view: group access, barrier count and detaching from a reused scratch. */
class MegakernelBarrierPlanTest {

  @Test
  void groupsReadFromTheFlatOrder() {
    MegakernelBarrierPlan plan = new MegakernelBarrierPlan(new int[] {0, 2, 1, 3}, new int[] {0, 1, 3, 4}, 3);
    assertEquals(3, plan.groupCount());
    assertEquals(2, plan.globalBarriers());
    assertEquals(4, plan.waveCount());
    assertEquals(2, plan.groupWidth(1));
    assertEquals(1, plan.wave(1, 1));
    assertArrayEquals(new int[] {2, 1}, plan.groupWaves(1));
    assertEquals("[[0], [2, 1], [3]]", plan.toString());
  }

  @Test
  void copySurvivesReuseOfTheScratch() {
    MegakernelBarrierScratch scratch = new MegakernelBarrierScratch();
    MegakernelBarrierPlan chain = MegakernelBarrierPlanner.planMegakernelBarriersWithScratch(3,
        MegakernelWaveDependencies.of(0, 1, 1, 2), scratch);
    MegakernelBarrierPlan kept = chain.copy();
    MegakernelBarrierPlanner.planMegakernelBarriersWithScratch(3, MegakernelWaveDependencies.of(2, 1, 1, 0), scratch);
    assertEquals("[[0], [1], [2]]", kept.toString());
  }
}
