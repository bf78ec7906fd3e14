package dev.vyre.driver.planner;

import static dev.vyre.driver.planner.MegakernelMemoryPlanner.planMegakernelExecution;
import static dev.vyre.driver.planner.MegakernelMemoryPlanner.planMegakernelMemoryBudget;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** vyre's vectors D1-D6 (docs/PORTS.md, "Test vectors") and the topology scratch scaling table. */
class MegakernelMemoryPlannerTest {

  private static final MegakernelGraphShape G = new MegakernelGraphShape(1_000, 4_000);
  private static final long MIB = 1 << 20;

  @Test
  void memoryPlannerBoundsPeakBytesByTopology() { // D1
    MegakernelMemoryPlan plan = planMegakernelMemoryBudget(MegakernelExecutionTopology.FusedWave, G,
        bytes(2_048, 128 * 1024));
    assertEquals(new MegakernelMemoryPlan(48_000, 4_096, 8_192, 512, 60_800, 131_072, 4_638), plan);
  }

  @Test
  void memoryPlannerRejectsBudgetAndOverflowFailures() { // D2, D3
    MegakernelMemoryException overBudget = assertThrows(MegakernelMemoryException.class,
        () -> planMegakernelMemoryBudget(MegakernelExecutionTopology.DenseFrontier, G, bytes(2_048, 32 * 1024)));
    assertEquals(MegakernelMemoryException.Variant.OverBudget, overBudget.variant());
    assertEquals(Map.of("topology", "DenseFrontier", "required_bytes", 56_704L, "budget_bytes", 32_768L,
        "node_count", 1_000L, "edge_count", 4_000L), Map.copyOf(overBudget.fields()));
    assertEquals("megakernel DenseFrontier plan requires 56704 bytes but budget allows 32768 bytes for graph nodes=1000 "
        + "edges=4000. Fix: choose a sparse topology, reduce fusion pressure, shard the graph, or raise the explicit "
        + "device-memory budget.", overBudget.display());

    MegakernelMemoryException overflow = assertThrows(MegakernelMemoryException.class,
        () -> planMegakernelMemoryBudget(MegakernelExecutionTopology.SparseFrontier, new MegakernelGraphShape(-1L, 0),
            new MegakernelByteLayout(2, 0, 0, 0, 0, -1L)));
    assertEquals(MegakernelMemoryException.Variant.ByteCountOverflow, overflow.variant());
    assertEquals("node layout bytes", overflow.fields().get("field"));
  }

  @Test
  void topologyScratchScaling() {
    assertEquals(32, MegakernelMemoryPlanner.topologyScratchBytes(MegakernelExecutionTopology.WarpSparseFrontier, 5));
    assertEquals(5, MegakernelMemoryPlanner.topologyScratchBytes(MegakernelExecutionTopology.SparseFrontier, 5));
    assertEquals(2_048, MegakernelMemoryPlanner.topologyScratchBytes(MegakernelExecutionTopology.BlockDenseFrontier, 5));
    assertEquals(10, MegakernelMemoryPlanner.topologyScratchBytes(MegakernelExecutionTopology.DenseFrontier, 5));
    assertEquals(15, MegakernelMemoryPlanner.topologyScratchBytes(MegakernelExecutionTopology.HybridFrontier, 5));
    assertEquals(20, MegakernelMemoryPlanner.topologyScratchBytes(MegakernelExecutionTopology.FusedWave, 5));
    MegakernelMemoryException overflow = assertThrows(MegakernelMemoryException.class,
        () -> MegakernelMemoryPlanner.topologyScratchBytes(MegakernelExecutionTopology.HybridFrontier, 1L << 63));
    assertEquals("hybrid topology scratch bytes", overflow.fields().get("field"));
  }

  @Test
  void executionPlanSelectsFromSparsePressure() { // D4
    MegakernelExecutionPlan plan = planMegakernelExecution(new MegakernelExecutionSample(1_000, 0.5, MIB), G,
        bytes(2_048, 131_072), 250, 0.9);
    assertEquals(MegakernelExecutionTopology.FusedWave, plan.topology());
    assertFalse(plan.downgradedToSparse());
    assertEquals(8_192, plan.memory().scratchBytes());
    assertEquals(4_169, plan.decision().memoryPressureBps());
  }

  @Test
  void executionPlanDowngradesToSparseWhenTheSelectionDoesNotFit() { // D5
    MegakernelExecutionPlan plan = planMegakernelExecution(new MegakernelExecutionSample(1_000, 0.5, MIB), G,
        bytes(10_000, 80_000), 250, 0.9);
    assertEquals(MegakernelExecutionTopology.SparseFrontier, plan.topology());
    assertTrue(plan.downgradedToSparse());
    assertEquals(10_000, plan.memory().scratchBytes());
    assertEquals(62_608, plan.memory().requiredBytes());
    assertEquals(7_826, plan.memory().memoryPressureBps());
    assertEquals(MegakernelExecutionTopology.FusedWave, plan.decision().topology());
  }

  @Test
  void generatedExecutionPlansNeverExceedBudgetOrHideOverflow() { // D6
    long[] state = {0x4d59_5df4_d0f3_3173L};
    for (int index = 0; index < 1_024; index++) {
      long nodes = 1 + Long.remainderUnsigned(next(state), 8_192);
      long edges = nodes + Long.remainderUnsigned(next(state), 65_536);
      long bytesPerNode = 1 + Long.remainderUnsigned(next(state), 64);
      long bytesPerEdge = 1 + Long.remainderUnsigned(next(state), 32);
      long frontier = Long.remainderUnsigned(next(state), 65_536);
      long scratch = Long.remainderUnsigned(next(state), 16_384);
      long output = Long.remainderUnsigned(next(state), 8_192);
      long budget = 64 * 1024 + Long.remainderUnsigned(next(state), 4 * 1024 * 1024);
      MegakernelExecutionSample sample = new MegakernelExecutionSample(100.0 + Long.remainderUnsigned(next(state), 10_000),
          Long.remainderUnsigned(next(state), 10_001) / 10_000.0, Long.remainderUnsigned(next(state), 1 << 20));
      MegakernelByteLayout bytes = new MegakernelByteLayout(bytesPerNode, bytesPerEdge, frontier, scratch, output, budget);
      try {
        MegakernelExecutionPlan plan = planMegakernelExecution(sample, new MegakernelGraphShape(nodes, edges), bytes,
            250, 0.85);
        assertTrue(plan.memory().requiredBytes() <= plan.memory().budgetBytes(), "case " + index);
        assertTrue(plan.memory().memoryPressureBps() <= 10_000);
      } catch (MegakernelMemoryException e) {
        if (e.isOverBudget()) {
          assertTrue((Long) e.fields().get("required_bytes") > (Long) e.fields().get("budget_bytes"), "case " + index);
        }
      }
    }
  }

  private static long next(long[] state) {
    state[0] = state[0] * 6_364_136_223_846_793_005L + 1_442_695_040_888_963_407L;
    return state[0];
  }

  private static MegakernelByteLayout bytes(long scratch, long budget) {
    return new MegakernelByteLayout(16, 8, 4_096, scratch, 512, budget);
  }
}
