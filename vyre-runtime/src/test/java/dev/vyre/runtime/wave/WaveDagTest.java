package dev.vyre.runtime.wave;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.planner.MegakernelBarrierPlanException;
import dev.vyre.driver.planner.MegakernelBarrierPlanner;
import dev.vyre.driver.planner.MegakernelFrontierMemoryPlanException;
import dev.vyre.driver.planner.MegakernelFrontierWave;
import dev.vyre.driver.planner.MegakernelWaveDependencies;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.WaveGateLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Declaring and planning wave DAGs (no kernel): the layers are the planners', and bad DAGs are typed errors with a fix. */
class WaveDagTest {

  @Test
  void layersAreTheBarrierPlannersGroupsAndTasksKeepTheirArguments() {
    WaveDag dag = new WaveDag();
    WaveDag.Wave a = dag.wave("a", Opcodes.ATOMIC_ADD).task(1, 160).task(2, 161);
    WaveDag.Wave b = dag.wave("b", Opcodes.NOP).task();
    WaveDag.Wave c = dag.wave("c", Opcodes.STORE_U32).task(7, 162).after(a, b);
    WaveDag.Wave d = dag.wave("d", Opcodes.NOP).after(c);
    WavePlan plan = dag.plan();
    assertEquals(3, plan.layers());
    assertArrayEquals(new int[] {a.index(), b.index()}, plan.layerWaves(0));
    assertArrayEquals(new int[] {c.index()}, plan.layerWaves(1));
    assertArrayEquals(new int[] {d.index()}, plan.layerWaves(2));
    assertEquals(3, plan.layerTasks(0));
    assertEquals(1, plan.layerTasks(1));
    assertEquals(0, plan.layerTasks(2), "a wave without tasks still holds its layer");
    assertEquals(4, plan.tasks());
    assertEquals(2, plan.layerOf(d.index()));
    assertArrayEquals(new int[] {2, 161}, a.args(1));
    a.task(3, 163);
    assertEquals(4, plan.tasks(), "the plan keeps its own copy");
  }

  @Test
  void randomDagsLayerExactlyAsThePortedBarrierPlanner() {
    SplittableRandom random = new SplittableRandom(7);
    for (int round = 0; round < 200; round++) {
      WaveDag dag = new WaveDag();
      MegakernelWaveDependencies edges = new MegakernelWaveDependencies();
      int n = 1 + random.nextInt(20);
      for (int w = 0; w < n; w++) {
        dag.wave("w" + w, Opcodes.NOP).task();
      }
      for (int e = random.nextInt(3 * n); e > 0; e--) {
        int before = random.nextInt(n);
        int after = random.nextInt(n);
        if (before < after) {
          dag.dependency(before, after);
          edges.add(before, after);
        }
      }
      assertEquals(MegakernelBarrierPlanner.planMegakernelBarriers(n, edges).toString(), dag.plan().memory().barriers().toString());
    }
  }

  @Test
  void aLayerOverTheBudgetIsSplitAndAWaveOverItAloneIsRefused() {
    WaveDag dag = new WaveDag();
    // Fused bytes: frontier + 4 * scratch + output = 100 each.
    dag.wave("x", Opcodes.NOP, new MegakernelFrontierWave(40, 10, 20)).task();
    dag.wave("y", Opcodes.NOP, new MegakernelFrontierWave(40, 10, 20)).task();
    assertEquals(1, dag.plan(200).layers());
    WavePlan split = dag.plan(150);
    assertEquals(2, split.layers(), "two waves of 100 bytes do not fit 150 together: one layer each");
    assertEquals(100, split.memory().peakFrontierBytes() + 4 * split.memory().peakScratchBytes() + split.memory().peakOutputBytes());
    MegakernelFrontierMemoryPlanException over = assertThrows(MegakernelFrontierMemoryPlanException.class, () -> dag.plan(99));
    assertEquals(MegakernelFrontierMemoryPlanException.Variant.GroupOverBudget, over.variant());
    assertTrue(over.getMessage().contains("Fix:"), over.getMessage());
  }

  @Test
  void cyclesSelfDependenciesAndUnknownWavesAreTypedErrors() {
    WaveDag dag = new WaveDag();
    WaveDag.Wave a = dag.wave("a", Opcodes.NOP);
    WaveDag.Wave b = dag.wave("b", Opcodes.NOP).after(a);
    a.after(b);
    assertEquals(MegakernelBarrierPlanException.Variant.Cycle, barrierError(dag).variant());

    WaveDag self = new WaveDag();
    WaveDag.Wave s = self.wave("s", Opcodes.NOP);
    s.after(s);
    assertEquals(MegakernelBarrierPlanException.Variant.SelfDependency, barrierError(self).variant());

    WaveDag unknown = new WaveDag();
    unknown.wave("only", Opcodes.NOP);
    unknown.dependency(0, 5);
    assertEquals(MegakernelBarrierPlanException.Variant.InvalidWave, barrierError(unknown).variant());

    PipelineException foreign = assertThrows(PipelineException.class, () -> new WaveDag().wave("z", Opcodes.NOP).after(a));
    assertTrue(foreign.getMessage().contains("Fix:"), foreign.getMessage());
    assertThrows(PipelineException.class, () -> dag.wave("bad", 0xFFF5), "a reserved system opcode");
    assertThrows(PipelineException.class, () -> a.task(new int[13]));
  }

  private static MegakernelBarrierPlanException barrierError(WaveDag dag) {
    MegakernelFrontierMemoryPlanException e = assertThrows(MegakernelFrontierMemoryPlanException.class, dag::plan);
    assertEquals(MegakernelFrontierMemoryPlanException.Variant.Barrier, e.variant());
    assertTrue(e.getMessage().contains("Fix:"), e.getMessage());
    return (MegakernelBarrierPlanException) e.fields().get("inner");
  }

  @Test
  void theGateWordKeepsTheLevelBesideTheTableAndTheLayer() {
    int gate = WaveGateLayout.gate(4095, WaveGateLayout.MAX_LAYERS - 1);
    assertEquals(4095, WaveGateLayout.handle(gate | 4));
    assertEquals(WaveGateLayout.MAX_LAYERS, WaveGateLayout.ownWord(gate | 4));
    assertEquals(4, WaveGateLayout.level(gate | 4));
    assertTrue(WaveGateLayout.isGated(WaveGateLayout.gate(0, 0)));
    assertFalse(WaveGateLayout.isGated(Priority.IDLE.level()), "an ordinary priority word is no gate");
    assertThrows(PipelineException.class, () -> WaveGateLayout.gate(4096, 0));
    assertThrows(PipelineException.class, () -> WaveGateLayout.gate(0, WaveGateLayout.MAX_LAYERS));

  }
}
