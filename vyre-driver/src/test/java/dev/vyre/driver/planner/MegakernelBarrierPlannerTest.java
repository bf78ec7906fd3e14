package dev.vyre.driver.planner;

import static dev.vyre.driver.planner.MegakernelBarrierPlanner.planMegakernelBarriers;
import static dev.vyre.driver.planner.MegakernelBarrierPlanner.planMegakernelBarriersWithScratch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** vyre's barrier planner tests and its vectors A1-A17 (docs/PORTS.md, "Test vectors"), plus allocation and DAG properties. */
class MegakernelBarrierPlannerTest {

  private static final MegakernelWaveDependencies CHAIN = MegakernelWaveDependencies.of(0, 1, 1, 2, 2, 3);
  private static final MegakernelWaveDependencies DIAMOND = MegakernelWaveDependencies.of(0, 1, 0, 2, 1, 3, 2, 3);

  @Test
  void independentWavesShareOneBarrierFreeGroup() { // A1
    MegakernelBarrierPlan plan = planMegakernelBarriers(4, new MegakernelWaveDependencies());
    assertEquals(0, plan.globalBarriers());
    assertEquals(1, plan.groupCount());
    assertEquals("[[0, 1, 2, 3]]", plan.toString());
  }

  @Test
  void dependencyChainRequiresOneBarrierBetweenEachWave() { // A2
    MegakernelBarrierPlan plan = planMegakernelBarriers(4, CHAIN);
    assertEquals(3, plan.globalBarriers());
    assertEquals("[[0], [1], [2], [3]]", plan.toString());
  }

  @Test
  void diamondDependenciesFuseMiddleWaves() { // A3
    MegakernelBarrierPlan plan = planMegakernelBarriers(4, DIAMOND);
    assertEquals(2, plan.globalBarriers());
    assertEquals("[[0], [1, 2], [3]]", plan.toString());
  }

  @Test
  void invalidSelfAndCyclicDependenciesFailLoudly() { // A4, A5, A6
    assertError(Map.of("wave_count", 2L, "before", 0L, "after", 2L), MegakernelBarrierPlanException.Variant.InvalidWave,
        () -> planMegakernelBarriers(2, MegakernelWaveDependencies.of(0, 2)));
    assertError(Map.of("wave", 1L), MegakernelBarrierPlanException.Variant.SelfDependency, () -> planMegakernelBarriers(2, MegakernelWaveDependencies.of(1, 1)));
    assertError(Map.of("unscheduled_waves", 2L), MegakernelBarrierPlanException.Variant.Cycle,
        () -> planMegakernelBarriers(2, MegakernelWaveDependencies.of(0, 1, 1, 0)));
  }

  @Test
  void errorsDisplayVyresText() {
    MegakernelBarrierPlanException invalid = assertThrows(MegakernelBarrierPlanException.class,
        () -> planMegakernelBarriers(2, MegakernelWaveDependencies.of(0, 2)));
    assertEquals("megakernel dependency references invalid wave before=0 after=2 for wave_count=2. Fix: emit "
        + "dependencies only over normalized wave indices.", invalid.display());
    assertEquals("MegakernelBarrierPlanError", invalid.errorType());
    MegakernelBarrierPlanException cycle = assertThrows(MegakernelBarrierPlanException.class,
        () -> planMegakernelBarriers(2, MegakernelWaveDependencies.of(0, 1, 1, 0)));
    assertEquals("megakernel wave dependency graph contains a cycle with 2 unscheduled waves. Fix: break the cyclic "
        + "dataflow edge or insert an explicit iterative fixed-point kernel.", cycle.display());
  }

  @Test
  void barrierPlannerUsesCsrAdjacencyForWideWaveGraphs() { // vyre's CUDA barrier-planner suite
    MegakernelBarrierPlan plan = planMegakernelBarriers(1_025, fanOut(1_025));
    assertEquals(1, plan.globalBarriers());
    assertEquals("[0]", java.util.Arrays.toString(plan.groupWaves(0)));
    assertEquals(1_024, plan.groupWidth(1));
  }

  @Test
  void barrierPlannerReusesCallerOwnedCsrScratchAcrossShapes() { // A7
    MegakernelBarrierScratch scratch = MegakernelBarrierScratch.tryWithCapacity(1_025, 1_024);
    MegakernelBarrierPlan wide = planMegakernelBarriersWithScratch(1_025, fanOut(1_025), scratch);
    long waveCapacity = scratch.waveCapacity();
    long dependencyCapacity = scratch.dependencyCapacity();
    assertEquals(1_024, wide.groupWidth(1));

    MegakernelBarrierPlan narrow = planMegakernelBarriersWithScratch(4, CHAIN, scratch);
    assertEquals(3, narrow.globalBarriers());
    assertTrue(scratch.waveCapacity() >= waveCapacity);
    assertTrue(scratch.dependencyCapacity() >= dependencyCapacity);
  }

  @Test
  void generatedLayeredDagsPreserveExactBarrierDepthFor2048Shapes() { // A8
    MegakernelBarrierScratch scratch = new MegakernelBarrierScratch();
    MegakernelWaveDependencies dependencies = new MegakernelWaveDependencies();
    for (int width = 1; width <= 64; width++) {
      for (int depth = 1; depth <= 32; depth++) {
        dependencies.clear();
        for (int layer = 0; layer + 1 < depth; layer++) {
          for (int slot = 0; slot < width; slot++) {
            dependencies.add((long) layer * width + slot, (long) (layer + 1) * width + slot);
          }
        }
        MegakernelBarrierPlan plan = planMegakernelBarriersWithScratch((long) width * depth, dependencies, scratch);
        assertEquals(depth, plan.groupCount());
        assertEquals(depth - 1, plan.globalBarriers());
        for (int group = 0; group < depth; group++) {
          assertEquals(width, plan.groupWidth(group));
        }
      }
    }
  }

  @Test
  void laterGroupsKeepReleaseOrderNotIndexOrder() { // A10, docs/CONFORMANCE.md, "Barrier planner"
    assertEquals("[[0], [3, 2, 1]]", planMegakernelBarriers(4, MegakernelWaveDependencies.of(0, 3, 0, 2, 0, 1)).toString());
    assertEquals("[[0], [3, 1, 4, 2]]",
        planMegakernelBarriers(5, MegakernelWaveDependencies.of(0, 3, 0, 1, 0, 4, 0, 2)).toString());
  }

  @Test
  void derivedShapes() { // A11, A14, A15, A16
    MegakernelBarrierPlan reversed = planMegakernelBarriers(3, MegakernelWaveDependencies.of(1, 0));
    assertEquals("[[1, 2], [0]]", reversed.toString());
    assertEquals(1, reversed.globalBarriers());
    MegakernelBarrierPlan empty = planMegakernelBarriers(0, new MegakernelWaveDependencies());
    assertEquals("[]", empty.toString());
    assertEquals(0, empty.globalBarriers());
    assertEquals(0, empty.waveCount());
    assertEquals("[[0, 1], [2, 4], [3]]",
        planMegakernelBarriers(5, MegakernelWaveDependencies.of(0, 2, 1, 2, 2, 3, 1, 4)).toString());
    assertEquals("[[0], [1]]", planMegakernelBarriers(2, MegakernelWaveDependencies.of(0, 1, 0, 1)).toString());
  }

  @Test
  void errorPrecedenceFollowsVyre() { // A12, A13, A17
    assertError(Map.of("unscheduled_waves", 2L), MegakernelBarrierPlanException.Variant.Cycle,
        () -> planMegakernelBarriers(3, MegakernelWaveDependencies.of(0, 1, 1, 0)));
    assertError(Map.of("wave_count", 0L, "before", 0L, "after", 0L), MegakernelBarrierPlanException.Variant.InvalidWave,
        () -> planMegakernelBarriers(0, MegakernelWaveDependencies.of(0, 0)));
    assertError(Map.of("wave", 2L), MegakernelBarrierPlanException.Variant.SelfDependency,
        () -> planMegakernelBarriers(3, MegakernelWaveDependencies.of(2, 2, 0, 5)));
    // Out of range is checked before the self edge, and a cycle's downstream waves count as unscheduled.
    assertError(Map.of("wave_count", 3L, "before", 7L, "after", 7L), MegakernelBarrierPlanException.Variant.InvalidWave,
        () -> planMegakernelBarriers(3, MegakernelWaveDependencies.of(7, 7)));
    assertError(Map.of("unscheduled_waves", 3L), MegakernelBarrierPlanException.Variant.Cycle,
        () -> planMegakernelBarriers(4, MegakernelWaveDependencies.of(1, 2, 2, 1, 2, 3)));
    assertError(Map.of("wave_count", 2L, "before", -1L, "after", 0L), MegakernelBarrierPlanException.Variant.InvalidWave,
        () -> planMegakernelBarriers(2, MegakernelWaveDependencies.of(-1L, 0)));
  }

  @Test
  void waveCountsThatCannotBeRepresentedFailAsTypedErrors() { // docs/CONFORMANCE.md, "Barrier planner"
    assertError(Map.of("field", "barrier scratch wave offsets"), MegakernelBarrierPlanException.Variant.ByteCountOverflow,
        () -> planMegakernelBarriers(-1L, new MegakernelWaveDependencies()));
    MegakernelBarrierPlanException huge = assertThrows(MegakernelBarrierPlanException.class,
        () -> planMegakernelBarriers(1L << 40, MegakernelWaveDependencies.of(0, 1)));
    assertEquals(MegakernelBarrierPlanException.Variant.StorageReserveFailed, huge.variant());
    assertEquals("outgoing counts", huge.fields().get("field"));
    assertEquals(1L << 40, huge.fields().get("requested"));
    assertTrue(huge.display().endsWith("Fix: shard the dependency graph before barrier planning."));
  }

  @Test
  void planningWithWarmScratchAllocatesNothingPerWave() {
    int waves = 200_000;
    MegakernelWaveDependencies dependencies = randomDag(waves, waves, 7);
    MegakernelBarrierScratch scratch = new MegakernelBarrierScratch();
    for (int warmUp = 0; warmUp < 20; warmUp++) {
      planMegakernelBarriersWithScratch(waves, dependencies, scratch);
    }
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().threadId();
    long before = threads.getThreadAllocatedBytes(thread);
    for (int round = 0; round < 10; round++) {
      planMegakernelBarriersWithScratch(waves, dependencies, scratch);
    }
    long allocated = threads.getThreadAllocatedBytes(thread) - before;
    // A plan view per call is allowed; one int per wave would already be 800 KB per call.
    assertTrue(allocated < 64 * 1024, "allocated " + allocated + " bytes over 10 plans of " + waves + " waves");
  }

  /** Every dependency goes from an earlier group to a later one, and every wave sits at its longest-path depth. */
  @Property(tries = 200)
  void groupsAreValidAndMinimal(@ForAll @IntRange(min = 1, max = 300) int waves,
      @ForAll @IntRange(min = 0, max = 900) int edges, @ForAll long seed) {
    MegakernelWaveDependencies dependencies = randomDag(waves, edges, seed);
    MegakernelBarrierPlan plan = planMegakernelBarriers(waves, dependencies);
    int[] groupOf = new int[waves];
    java.util.Arrays.fill(groupOf, -1);
    for (int group = 0; group < plan.groupCount(); group++) {
      for (int index = 0; index < plan.groupWidth(group); index++) {
        int wave = plan.wave(group, index);
        assertEquals(-1, groupOf[wave], "wave " + wave + " appears twice");
        groupOf[wave] = group;
      }
    }
    int[] depth = longestPathDepths(waves, dependencies);
    for (int wave = 0; wave < waves; wave++) {
      assertEquals(depth[wave], groupOf[wave], "wave " + wave + " is not in the layer of its longest path");
    }
    for (int edge = 0; edge < dependencies.size(); edge++) {
      assertTrue(groupOf[(int) dependencies.before(edge)] < groupOf[(int) dependencies.after(edge)]);
    }
  }

  private static int[] longestPathDepths(int waves, MegakernelWaveDependencies dependencies) {
    // randomDag only draws edges from a lower to a higher index, so index order is topological.
    List<List<Integer>> incoming = new ArrayList<>();
    for (int wave = 0; wave < waves; wave++) {
      incoming.add(new ArrayList<>());
    }
    for (int edge = 0; edge < dependencies.size(); edge++) {
      incoming.get((int) dependencies.after(edge)).add((int) dependencies.before(edge));
    }
    int[] depth = new int[waves];
    for (int wave = 0; wave < waves; wave++) {
      for (int parent : incoming.get(wave)) {
        depth[wave] = Math.max(depth[wave], depth[parent] + 1);
      }
    }
    return depth;
  }

  /** {@code edges} random dependencies from a lower to a higher wave index (duplicates allowed). */
  static MegakernelWaveDependencies randomDag(int waves, int edges, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    MegakernelWaveDependencies dependencies = new MegakernelWaveDependencies(edges);
    if (waves < 2) {
      return dependencies;
    }
    for (int edge = 0; edge < edges; edge++) {
      int before = random.nextInt(waves - 1);
      dependencies.add(before, before + 1 + random.nextInt(waves - 1 - before));
    }
    return dependencies;
  }

  private static MegakernelWaveDependencies fanOut(int waves) {
    MegakernelWaveDependencies dependencies = new MegakernelWaveDependencies(waves - 1);
    for (int after = 1; after < waves; after++) {
      dependencies.add(0, after);
    }
    return dependencies;
  }

  private static void assertError(Map<String, Object> fields, MegakernelBarrierPlanException.Variant variant, Runnable plan) {
    MegakernelBarrierPlanException error = assertThrows(MegakernelBarrierPlanException.class, plan::run);
    assertEquals(variant, error.variant());
    assertEquals(fields, Map.copyOf(error.fields()));
  }
}
