package dev.vyre.cuda.plan;

import static dev.vyre.cuda.plan.CudaMegakernelBarrierPlanner.planCudaFrontierMegakernelExecution;
import static dev.vyre.cuda.plan.CudaMegakernelBarrierPlanner.planCudaFrontierMegakernelExecutionWithScratch;
import static dev.vyre.cuda.plan.CudaMegakernelBarrierPlanner.planCudaMegakernelBarriers;
import static dev.vyre.cuda.plan.CudaMegakernelBarrierPlanner.planCudaMegakernelBarriersWithScratch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.cuda.plan.CudaMegakernelAnalysisKind.Builtin;
import dev.vyre.driver.error.VyreException;
import dev.vyre.driver.planner.MegakernelBarrierPlan;
import dev.vyre.driver.planner.MegakernelBarrierPlanException;
import dev.vyre.driver.planner.MegakernelBarrierScratch;
import dev.vyre.driver.planner.MegakernelExecutionSample;
import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelFrontierWave;
import dev.vyre.driver.planner.MegakernelGraphShape;
import dev.vyre.driver.planner.MegakernelWaveDependencies;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every test of vyre's CUDA barrier-planner suite, and vyre's vectors F1-F8 (A1-A9 through the CUDA names; docs/PORTS.md,
 * "Test vectors").
 */
class CudaMegakernelBarrierPlannerTest {

  private static final MegakernelGraphShape G = new MegakernelGraphShape(1_000, 4_000);
  private static final MegakernelWaveDependencies NONE = new MegakernelWaveDependencies();
  private static final MegakernelWaveDependencies DIAMOND = MegakernelWaveDependencies.of(0, 1, 0, 2, 1, 3, 2, 3);
  private static final List<MegakernelFrontierWave> DOUBLING = List.of(wave(1_024, 512, 256), wave(2_048, 1_024, 512),
      wave(4_096, 2_048, 1_024), wave(8_192, 4_096, 2_048));
  private static final long MIB = 1 << 20;

  @Test
  void independentWavesShareOneBarrierFreeGroup() {
    MegakernelBarrierPlan plan = planCudaMegakernelBarriers(4, NONE);
    assertEquals(0, plan.globalBarriers());
    assertEquals("[[0, 1, 2, 3]]", plan.toString());
  }

  @Test
  void dependencyChainRequiresOneBarrierBetweenEachWave() {
    MegakernelBarrierPlan plan = planCudaMegakernelBarriers(4, MegakernelWaveDependencies.of(0, 1, 1, 2, 2, 3));
    assertEquals(3, plan.globalBarriers());
    assertEquals("[[0], [1], [2], [3]]", plan.toString());
  }

  @Test
  void diamondDependenciesFuseMiddleWaves() {
    MegakernelBarrierPlan plan = planCudaMegakernelBarriers(4, DIAMOND);
    assertEquals(2, plan.globalBarriers());
    assertEquals("[[0], [1, 2], [3]]", plan.toString());
  }

  @Test
  void barrierPlannerUsesCsrAdjacencyForWideWaveGraphs() {
    MegakernelBarrierPlan plan = planCudaMegakernelBarriers(1_025, fanOut());
    assertEquals(1, plan.globalBarriers());
    assertEquals(1, plan.groupWidth(0));
    assertEquals(1_024, plan.groupWidth(1));
  }

  @Test
  void barrierPlannerReusesCallerOwnedCsrScratchAcrossShapes() {
    MegakernelBarrierScratch scratch = MegakernelBarrierScratch.tryWithCapacity(1_025, 1_024);
    assertEquals(1_024, planCudaMegakernelBarriersWithScratch(1_025, fanOut(), scratch).groupWidth(1));
    long waveCapacity = scratch.waveCapacity();
    long dependencyCapacity = scratch.dependencyCapacity();
    MegakernelBarrierPlan narrow = planCudaMegakernelBarriersWithScratch(4, MegakernelWaveDependencies.of(0, 1, 1, 2, 2, 3),
        scratch);
    assertEquals(3, narrow.globalBarriers());
    assertTrue(scratch.waveCapacity() >= waveCapacity);
    assertTrue(scratch.dependencyCapacity() >= dependencyCapacity);
  }

  @Test
  void frontierExecutionPlannerAcceptsReusableBarrierScratch() { // F8, A9
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    MegakernelBarrierScratch scratch = MegakernelBarrierScratch.tryWithCapacity(3, 2);
    CudaMegakernelFrontierExecutionPlan plan = planCudaFrontierMegakernelExecutionWithScratch(cache, identity(77),
        new MegakernelExecutionSample(1_000, 0.4, 16), new MegakernelGraphShape(256, 512), 16, 8,
        List.of(wave(128, 64, 32), wave(256, 128, 64), wave(512, 256, 128)), MegakernelWaveDependencies.of(0, 1, 1, 2),
        MIB, 400, 1.0, scratch);
    assertEquals(2, plan.barriers().globalBarriers());
    assertTrue(scratch.waveCapacity() >= 3);
    assertTrue(scratch.dependencyCapacity() >= 2);
  }

  @Test
  void invalidOrCyclicDependenciesFailLoudly() {
    MegakernelBarrierPlanException invalid = assertThrows(MegakernelBarrierPlanException.class,
        () -> planCudaMegakernelBarriers(2, MegakernelWaveDependencies.of(0, 2)));
    assertEquals(MegakernelBarrierPlanException.Variant.InvalidWave, invalid.variant());
    MegakernelBarrierPlanException cycle = assertThrows(MegakernelBarrierPlanException.class,
        () -> planCudaMegakernelBarriers(2, MegakernelWaveDependencies.of(0, 1, 1, 0)));
    assertEquals(Map.of("unscheduled_waves", 2L), Map.copyOf(cycle.fields()));
  }

  @Test
  void frontierExecutionPlanUsesPeakBarrierGroupMemory() { // F1
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    CudaMegakernelFrontierExecutionPlan plan = plan(cache, 42, Builtin.Dataflow, sample(0.90, MIB), G, 16, 8, DOUBLING,
        DIAMOND, 128 * 1024);
    assertEquals(2, plan.barriers().globalBarriers());
    assertEquals("[[0], [1, 2], [3]]", plan.barriers().toString());
    assertPeaks(plan, 8_192, 4_096, 2_048);
    assertEquals(MIB, plan.amortizedReadbackBytes());
    assertEquals(2, plan.maxGroupWidth());
    assertEquals(MegakernelExecutionTopology.FusedWave, plan.execution().topology());
    assertEquals(8_192, plan.execution().memory().frontierBytes());
    assertEquals(74_624, plan.execution().memory().requiredBytes());
  }

  @Test
  void frontierExecutionUsesStaticGroupOutputToTriggerFusion() { // F2
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    CudaMegakernelFrontierExecutionPlan plan = plan(cache, 77, Builtin.Dataflow, sample(0.50, 0), G, 16, 8,
        List.of(wave(1_024, 512, 3_072), wave(1_024, 512, 3_072)), NONE, 128 * 1024);
    assertEquals(6_144, plan.peakOutputBytes());
    assertEquals(6_144, plan.amortizedReadbackBytes());
    assertEquals(MegakernelExecutionTopology.FusedWave, plan.execution().topology(),
        "high static fused-group output pressure must trigger fusion without runtime readback");
  }

  @Test
  void frontierExecutionSplitsIndependentLayersToFitFusedMemoryBudget() { // F3
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    CudaMegakernelFrontierExecutionPlan plan = plan(cache, 909, Builtin.Dataflow, sample(0.50, 4_096),
        new MegakernelGraphShape(1, 0), 0, 0, List.of(wave(10, 10, 10), wave(10, 10, 10), wave(10, 10, 10)), NONE, 100);
    assertEquals(3, plan.barriers().groupCount());
    assertEquals(2, plan.barriers().globalBarriers());
    assertEquals(1, plan.maxGroupWidth());
    assertPeaks(plan, 10, 10, 10);
    assertEquals(MegakernelExecutionTopology.FusedWave, plan.execution().topology());
    assertEquals(60, plan.execution().memory().requiredBytes());
  }

  @Test
  void frontierExecutionRejectsGraphBytesOverBudgetWithoutZeroBudgetDefault() { // F4
    assertError(CudaMegakernelFrontierExecutionPlanException.Variant.GroupOverBudget, Map.of("required_bytes", 1_600L, "budget_bytes", 1_000L, "field", "resident graph bytes"),
        () -> plan(new CudaMegakernelPlanCache(), 910, Builtin.Dataflow, sample(0.50, 4_096),
            new MegakernelGraphShape(100, 100), 8, 8, List.of(wave(1, 1, 1)), NONE, 1_000));
  }

  @Test
  void frontierExecutionRejectsSingleWaveThatCannotFitGroupBudget() { // F5
    CudaMegakernelFrontierExecutionPlanException error = assertError(CudaMegakernelFrontierExecutionPlanException.Variant.GroupOverBudget,
        Map.of("required_bytes", 600L, "budget_bytes", 500L, "field", "single fused frontier wave bytes"),
        () -> plan(new CudaMegakernelPlanCache(), 911, Builtin.Dataflow, sample(0.50, 4_096),
            new MegakernelGraphShape(1, 0), 0, 0, List.of(wave(100, 100, 100)), NONE, 500));
    assertEquals("CUDA megakernel frontier execution planner requires 600 bytes for single fused frontier wave bytes but "
        + "budget allows 500. Fix: shard the graph/frontier waves or raise the explicit CUDA megakernel budget.",
        error.display());
  }

  @Test
  void frontierExecutionPlanReusesCachedTopologyForEquivalentPressure() { // F6
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    List<MegakernelFrontierWave> waves = List.of(wave(1_024, 512, 256), wave(2_048, 1_024, 512));
    CudaMegakernelFrontierExecutionPlan first = plan(cache, 42, Builtin.ParserFrontend, sample(0.90, MIB), G, 16, 8,
        waves, NONE, 128 * 1024);
    CudaMegakernelFrontierExecutionPlan second = plan(cache, 42, Builtin.ParserFrontend, sample(0.91, MIB), G, 16, 8,
        waves, NONE, 128 * 1024);
    assertEquals(MegakernelExecutionTopology.FusedWave, first.execution().topology());
    assertEquals(MegakernelExecutionTopology.FusedWave, second.execution().topology());
    assertEquals(1, cache.stats().hits());
  }

  @Test
  void frontierExecutionPlanFailsLoudlyOnWaveByteOverflow() { // F7
    CudaMegakernelFrontierExecutionPlanException error = assertError(CudaMegakernelFrontierExecutionPlanException.Variant.ByteCountOverflow,
        Map.of("field", "fused wave bytes"),
        () -> plan(new CudaMegakernelPlanCache(), 42, Builtin.Dataflow, sample(0.90, MIB), new MegakernelGraphShape(1, 1),
            1, 1, List.of(wave(-1L, 1, 1), wave(1, 1, 1)), NONE, -1L));
    assertEquals("CUDA megakernel frontier execution planner overflowed while accumulating fused wave bytes. Fix: shard "
        + "the frontier wave group or split the fused phase.", error.display());
  }

  @Test
  void graphBytesAreCheckedBeforeDependencies() {
    assertError(CudaMegakernelFrontierExecutionPlanException.Variant.ByteCountOverflow, Map.of("field", "node layout bytes"),
        () -> plan(new CudaMegakernelPlanCache(), 1, Builtin.Dataflow, sample(0.5, 0), new MegakernelGraphShape(-1L, 0), 2,
            0, List.of(wave(1, 1, 1)), MegakernelWaveDependencies.of(0, 9), 100));
    CudaMegakernelFrontierExecutionPlanException barrier = assertThrows(CudaMegakernelFrontierExecutionPlanException.class,
        () -> plan(new CudaMegakernelPlanCache(), 1, Builtin.Dataflow, sample(0.5, 0), G, 0, 0, List.of(wave(1, 1, 1)),
            MegakernelWaveDependencies.of(0, 9), 100));
    assertEquals(CudaMegakernelFrontierExecutionPlanException.Variant.Barrier, barrier.variant());
    assertEquals(MegakernelBarrierPlanException.Variant.InvalidWave, ((VyreException) barrier.fields().get("inner")).variant());
  }

  @Test
  void peaksFromDifferentGroupsCanExceedTheBudgetTogether() { // docs/CONFORMANCE.md, "CUDA frontier execution"
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    CudaMegakernelFrontierExecutionPlanException error = assertThrows(CudaMegakernelFrontierExecutionPlanException.class,
        () -> plan(cache, 3, Builtin.Dataflow, sample(0.5, 0), new MegakernelGraphShape(1, 0), 0, 0,
            List.of(wave(60, 0, 0), wave(0, 0, 60)), NONE, 100));
    assertEquals(CudaMegakernelFrontierExecutionPlanException.Variant.Memory, error.variant());
    VyreException inner = (VyreException) error.fields().get("inner");
    assertEquals(Map.of("topology", "SparseFrontier", "required_bytes", 120L, "budget_bytes", 100L, "node_count", 1L,
        "edge_count", 0L), Map.copyOf(inner.fields()));
    assertEquals(inner.display(), error.display());
    assertEquals(1, cache.stats().entries());
  }

  private static CudaMegakernelFrontierExecutionPlan plan(CudaMegakernelPlanCache cache, long hash,
      CudaMegakernelAnalysisKind kind, MegakernelExecutionSample sample, MegakernelGraphShape graph, long bytesPerNode,
      long bytesPerEdge, List<MegakernelFrontierWave> waves, MegakernelWaveDependencies dependencies, long budget) {
    return planCudaFrontierMegakernelExecution(cache, new CudaMegakernelPlanIdentity(hash, kind,
        CudaMegakernelPlanCacheKeyTest.DEVICE), sample, graph, bytesPerNode, bytesPerEdge, waves, dependencies, budget,
        250, 0.95);
  }

  private static CudaMegakernelPlanIdentity identity(long hash) {
    return new CudaMegakernelPlanIdentity(hash, Builtin.Dataflow, CudaMegakernelPlanCacheKeyTest.DEVICE);
  }

  private static MegakernelExecutionSample sample(double density, long readback) {
    return new MegakernelExecutionSample(1_000.0, density, readback);
  }

  private static MegakernelFrontierWave wave(long frontier, long scratch, long output) {
    return new MegakernelFrontierWave(frontier, scratch, output);
  }

  private static MegakernelWaveDependencies fanOut() {
    MegakernelWaveDependencies dependencies = new MegakernelWaveDependencies(1_024);
    for (int after = 1; after < 1_025; after++) {
      dependencies.add(0, after);
    }
    return dependencies;
  }

  private static void assertPeaks(CudaMegakernelFrontierExecutionPlan plan, long frontier, long scratch, long output) {
    assertEquals(frontier, plan.peakFrontierBytes());
    assertEquals(scratch, plan.peakScratchBytes());
    assertEquals(output, plan.peakOutputBytes());
  }

  private static CudaMegakernelFrontierExecutionPlanException assertError(CudaMegakernelFrontierExecutionPlanException.Variant variant, Map<String, Object> fields,
      Runnable plan) {
    CudaMegakernelFrontierExecutionPlanException error =
        assertThrows(CudaMegakernelFrontierExecutionPlanException.class, plan::run);
    assertEquals(variant, error.variant());
    assertEquals(fields, Map.copyOf(error.fields()));
    return error;
  }
}
