package dev.vyre.cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierResidency;
import org.junit.jupiter.api.Test;

/** Memory plans are made once per device, algorithm, graph shape and budget. */
class ResidencyPlansTest {

  @Test
  void theSameShapeAndBudgetReuseThePlanAndAnotherBudgetDoesNot() {
    ResidencyPlans plans = new ResidencyPlans();
    ResidencyPlans.Key key = new ResidencyPlans.Key("H100 #0", FrontierAlgorithm.BFS, 1 << 20, 16L << 20, false, 1L << 34);
    FrontierResidency first = plans.plan(key);
    assertSame(first, plans.plan(key));
    assertEquals(1, plans.reused());
    ResidencyPlans.Key tight = new ResidencyPlans.Key("H100 #0", FrontierAlgorithm.BFS, 1 << 20, 16L << 20, false, 40L << 20);
    FrontierResidency mapped = plans.plan(tight);
    assertNotSame(first, mapped);
    assertEquals(FrontierResidency.Placement.RESIDENT, first.placement());
    assertEquals(FrontierResidency.Placement.HOST_MAPPED, mapped.placement());
    assertEquals(1, plans.reused());
  }
}
