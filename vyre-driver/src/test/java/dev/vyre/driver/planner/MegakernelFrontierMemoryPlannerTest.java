package dev.vyre.driver.planner;

import static dev.vyre.driver.planner.MegakernelFrontierMemoryPlanner.fusedWaveBudgetBytes;
import static dev.vyre.driver.planner.MegakernelFrontierMemoryPlanner.planMegakernelFrontierMemoryWithScratch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** vyre's frontier memory planner tests and its vectors B1-B15 (docs/PORTS.md, "Test vectors"), plus budget-splitting properties. */
class MegakernelFrontierMemoryPlannerTest {

  private static final List<MegakernelFrontierWave> DOUBLING = List.of(wave(1_024, 512, 256), wave(2_048, 1_024, 512),
      wave(4_096, 2_048, 1_024), wave(8_192, 4_096, 2_048));
  private static final MegakernelWaveDependencies DIAMOND = MegakernelWaveDependencies.of(0, 1, 0, 2, 1, 3, 2, 3);
  private static final MegakernelWaveDependencies NONE = new MegakernelWaveDependencies();

  @Test
  void frontierMemoryPlanUsesPeakBarrierGroupMemory() { // B1
    MegakernelFrontierMemoryPlan plan = plan(DOUBLING, DIAMOND, 16_000, 128 * 1024, 1 << 20);
    assertEquals(2, plan.barriers().globalBarriers());
    assertEquals("[1, 2]", java.util.Arrays.toString(plan.barriers().groupWaves(1)));
    assertPeaks(plan, 8_192, 4_096, 2_048);
    assertEquals(1 << 20, plan.amortizedReadbackBytes());
    assertEquals(2, plan.maxGroupWidth());
  }

  @Test
  void frontierMemoryUsesStaticGroupOutputToAmortizeReadback() { // B2
    MegakernelFrontierMemoryPlan plan =
        plan(List.of(wave(1_024, 512, 3_072), wave(1_024, 512, 3_072)), NONE, 16_000, 128 * 1024, 0);
    assertEquals(6_144, plan.peakOutputBytes());
    assertEquals(6_144, plan.amortizedReadbackBytes());
  }

  @Test
  void frontierMemorySplitsIndependentLayersToFitFusedBudget() { // B3
    MegakernelFrontierMemoryPlan plan = plan(List.of(wave(10, 10, 10), wave(10, 10, 10), wave(10, 10, 10)), NONE, 0,
        100, 4_096);
    assertEquals("[[0], [1], [2]]", plan.barriers().toString());
    assertEquals(2, plan.barriers().globalBarriers());
    assertEquals(1, plan.maxGroupWidth());
    assertPeaks(plan, 10, 10, 10);
  }

  @Test
  void frontierMemoryRejectsGraphAndSingleWaveOverBudget() { // B4, B5
    assertError(MegakernelFrontierMemoryPlanException.Variant.GroupOverBudget, Map.of("required_bytes", 1_600L, "budget_bytes", 1_000L, "field", "resident graph bytes"),
        () -> plan(List.of(wave(1, 1, 1)), NONE, 1_600, 1_000, 0));
    assertError(MegakernelFrontierMemoryPlanException.Variant.GroupOverBudget,
        Map.of("required_bytes", 600L, "budget_bytes", 500L, "field", "single fused frontier wave bytes"),
        () -> plan(List.of(wave(100, 100, 100)), NONE, 0, 500, 0));
  }

  @Test
  void fusedWaveBudgetCountsScratchFourTimes() { // B6, B15
    assertEquals(96, fusedWaveBudgetBytes(wave(16, 16, 16)));
    assertError(MegakernelFrontierMemoryPlanException.Variant.ByteCountOverflow, Map.of("field", "fused wave scratch bytes"),
        () -> fusedWaveBudgetBytes(wave(1, 1L << 62, 0)));
  }

  @Test
  void frontierMemoryFailsLoudlyOnWaveByteOverflow() { // B7
    MegakernelFrontierMemoryPlanException error = assertError(MegakernelFrontierMemoryPlanException.Variant.ByteCountOverflow, Map.of("field", "fused wave bytes"),
        () -> plan(List.of(wave(-1L, 1, 1), wave(1, 1, 1)), NONE, 2, -1L, 0));
    assertEquals("megakernel frontier memory planner overflowed while accumulating fused wave bytes. Fix: shard the "
        + "frontier wave group or split the fused phase.", error.display());
  }

  @Test
  void generatedFrontierMemoryProfilesPreservePeakAndBudgetFor1024Shapes() { // B8
    MegakernelBarrierScratch scratch = new MegakernelBarrierScratch();
    for (long width = 1; width <= 32; width++) {
      for (long depth = 1; depth <= 32; depth++) {
        List<MegakernelFrontierWave> waves = new ArrayList<>();
        MegakernelWaveDependencies dependencies = new MegakernelWaveDependencies();
        for (long layer = 0; layer < depth; layer++) {
          for (long slot = 0; slot < width; slot++) {
            waves.add(wave(width, slot + 1, layer + 1));
            if (layer + 1 < depth) {
              dependencies.add(layer * width + slot, (layer + 1) * width + slot);
            }
          }
        }
        MegakernelFrontierMemoryPlan plan =
            planMegakernelFrontierMemoryWithScratch(waves, dependencies, 256, Long.MAX_VALUE, 7, scratch);
        assertEquals(depth, plan.barriers().groupCount());
        assertEquals(width, plan.maxGroupWidth());
        assertPeaks(plan, width * width, width * (width + 1) / 2, width * depth);
        assertEquals(Math.max(7, width * depth), plan.amortizedReadbackBytes());
      }
    }
  }

  @Test
  void derivedSplits() { // B9, B10, B13, B14
    MegakernelFrontierMemoryPlan pairs = plan(List.of(wave(10, 10, 10), wave(10, 10, 10), wave(10, 10, 10),
        wave(10, 10, 10)), NONE, 0, 120, 0);
    assertEquals("[[0, 1], [2, 3]]", pairs.barriers().toString());
    assertEquals(1, pairs.barriers().globalBarriers());
    assertPeaks(pairs, 20, 20, 20);
    assertEquals(2, pairs.maxGroupWidth());

    MegakernelFrontierMemoryPlan uneven = plan(List.of(wave(5, 5, 5), wave(30, 0, 0), wave(5, 5, 5)), NONE, 0, 60, 0);
    assertEquals("[[0, 1], [2]]", uneven.barriers().toString());
    assertPeaks(uneven, 35, 5, 5);

    MegakernelFrontierMemoryPlan empty = plan(List.of(), NONE, 10, 10, 7);
    assertEquals("[]", empty.barriers().toString());
    assertEquals(0, empty.barriers().globalBarriers());
    assertPeaks(empty, 0, 0, 0);
    assertEquals(0, empty.maxGroupWidth());
    assertEquals(7, empty.amortizedReadbackBytes());

    assertError(MegakernelFrontierMemoryPlanException.Variant.GroupOverBudget,
        Map.of("required_bytes", 1L, "budget_bytes", 0L, "field", "single fused frontier wave bytes"),
        () -> plan(List.of(wave(1, 0, 0)), NONE, 10, 10, 0));
  }

  @Test
  void oversizedWaveIsAcceptedOnlyWhenItFollowsOthersInItsGroup() { // B11, B12 [quirk]
    MegakernelFrontierMemoryPlan accepted = plan(List.of(wave(1, 0, 0), wave(100, 0, 0)), NONE, 0, 50, 0);
    assertEquals("[[0], [1]]", accepted.barriers().toString());
    assertEquals(100, accepted.peakFrontierBytes());
    assertError(MegakernelFrontierMemoryPlanException.Variant.GroupOverBudget,
        Map.of("required_bytes", 100L, "budget_bytes", 50L, "field", "single fused frontier wave bytes"),
        () -> plan(List.of(wave(100, 0, 0), wave(1, 0, 0)), NONE, 0, 50, 0));
  }

  @Test
  void barrierErrorsComeFirstAndDisplayAsTheInnerError() {
    MegakernelFrontierMemoryPlanException error = assertThrows(MegakernelFrontierMemoryPlanException.class,
        () -> plan(List.of(wave(1, 1, 1)), MegakernelWaveDependencies.of(0, 1), 10, 1, 0));
    assertEquals(MegakernelFrontierMemoryPlanException.Variant.Barrier, error.variant());
    MegakernelBarrierPlanException inner = (MegakernelBarrierPlanException) error.fields().get("inner");
    assertEquals(MegakernelBarrierPlanException.Variant.InvalidWave, inner.variant());
    assertEquals(inner.display(), error.display());
  }

  @Test
  void splitOverflowIsReportedEvenWhenTheWaveWouldStartANewChunk() { // docs/CONFORMANCE.md, "Frontier memory planner"
    assertError(MegakernelFrontierMemoryPlanException.Variant.ByteCountOverflow, Map.of("field", "barrier group fused wave budget bytes"),
        () -> plan(List.of(wave(-2L, 0, 0), wave(5, 0, 0)), NONE, 0, -1L, 0));
  }

  @Test
  void planningWithWarmScratchAllocatesNothingPerWave() {
    int count = 100_000;
    List<MegakernelFrontierWave> waves = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      waves.add(wave(index % 97, index % 13, index % 31));
    }
    MegakernelWaveDependencies dependencies = MegakernelBarrierPlannerTest.randomDag(count, count, 11);
    MegakernelBarrierScratch scratch = new MegakernelBarrierScratch();
    for (int warmUp = 0; warmUp < 20; warmUp++) {
      planMegakernelFrontierMemoryWithScratch(waves, dependencies, 0, 4_000, 0, scratch);
    }
    var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().threadId();
    long before = threads.getThreadAllocatedBytes(thread);
    for (int round = 0; round < 10; round++) {
      planMegakernelFrontierMemoryWithScratch(waves, dependencies, 0, 4_000, 0, scratch);
    }
    long allocated = threads.getThreadAllocatedBytes(thread) - before;
    assertTrue(allocated < 64 * 1024, "allocated " + allocated + " bytes over 10 plans of " + count + " waves");
  }

  /**
   * Splitting keeps every wave once, in barrier-group order, never joins waves of different
   * barrier groups, and keeps each chunk within the budget unless it is a single wave that vyre
   * accepts because it followed others (a wave that would start a chunk over budget is an error).
   */
  @Property(tries = 200)
  void splittingRespectsTheBudget(@ForAll @IntRange(min = 1, max = 120) int count,
      @ForAll @IntRange(min = 0, max = 300) int edges, @ForAll @LongRange(min = 1, max = 5_000) long budget,
      @ForAll long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<MegakernelFrontierWave> waves = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      waves.add(wave(random.nextInt(400), random.nextInt(100), random.nextInt(400)));
    }
    MegakernelWaveDependencies dependencies = MegakernelBarrierPlannerTest.randomDag(count, edges, seed);
    MegakernelBarrierPlan barriers = MegakernelBarrierPlanner.planMegakernelBarriers(count, dependencies);
    MegakernelFrontierMemoryPlan plan;
    try {
      plan = planMegakernelFrontierMemoryWithScratch(waves, dependencies, 0, budget, 0, new MegakernelBarrierScratch());
    } catch (MegakernelFrontierMemoryPlanException e) {
      assertEquals("single fused frontier wave bytes", e.fields().get("field"));
      assertTrue((Long) e.fields().get("required_bytes") > budget);
      return;
    }
    MegakernelBarrierPlan split = plan.barriers();
    assertEquals(count, split.waveCount());
    int barrierGroup = 0;
    int consumed = 0;
    for (int chunk = 0; chunk < split.groupCount(); chunk++) {
      long bytes = 0;
      for (int index = 0; index < split.groupWidth(chunk); index++) {
        assertEquals(barriers.wave(barrierGroup, consumed), split.wave(chunk, index), "split reorders waves");
        bytes += fusedWaveBudgetBytes(waves.get(split.wave(chunk, index)));
        if (++consumed == barriers.groupWidth(barrierGroup)) {
          assertEquals(split.groupWidth(chunk) - 1, index, "a chunk crosses a barrier");
          barrierGroup++;
          consumed = 0;
        }
      }
      assertTrue(bytes <= budget || split.groupWidth(chunk) == 1, "chunk " + chunk + " holds " + bytes + " bytes");
    }
  }

  private static MegakernelFrontierMemoryPlan plan(List<MegakernelFrontierWave> waves,
      MegakernelWaveDependencies dependencies, long resident, long budget, long readback) {
    return planMegakernelFrontierMemoryWithScratch(waves, dependencies, resident, budget, readback,
        new MegakernelBarrierScratch());
  }

  private static MegakernelFrontierWave wave(long frontier, long scratch, long output) {
    return new MegakernelFrontierWave(frontier, scratch, output);
  }

  private static void assertPeaks(MegakernelFrontierMemoryPlan plan, long frontier, long scratch, long output) {
    assertEquals(frontier, plan.peakFrontierBytes());
    assertEquals(scratch, plan.peakScratchBytes());
    assertEquals(output, plan.peakOutputBytes());
  }

  private static MegakernelFrontierMemoryPlanException assertError(MegakernelFrontierMemoryPlanException.Variant variant, Map<String, Object> fields,
      Runnable plan) {
    MegakernelFrontierMemoryPlanException error = assertThrows(MegakernelFrontierMemoryPlanException.class, plan::run);
    assertEquals(variant, error.variant());
    assertEquals(fields, Map.copyOf(error.fields()));
    return error;
  }
}
