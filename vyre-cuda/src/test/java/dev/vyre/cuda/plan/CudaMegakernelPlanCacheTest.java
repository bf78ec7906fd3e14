package dev.vyre.cuda.plan;

import static dev.vyre.driver.planner.MegakernelExecutionTopology.DenseFrontier;
import static dev.vyre.driver.planner.MegakernelExecutionTopology.FusedWave;
import static dev.vyre.driver.planner.MegakernelExecutionTopology.HybridFrontier;
import static dev.vyre.driver.planner.MegakernelExecutionTopology.SparseFrontier;
import static dev.vyre.driver.planner.MegakernelExecutionTopology.WarpSparseFrontier;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.cuda.plan.CudaMegakernelAnalysisKind.Builtin;
import dev.vyre.driver.planner.MegakernelByteLayout;
import dev.vyre.driver.planner.MegakernelExecutionPlan;
import dev.vyre.driver.planner.MegakernelExecutionSample;
import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelFrontierWave;
import dev.vyre.driver.planner.MegakernelGraphShape;
import dev.vyre.driver.planner.MegakernelMemoryBudget;
import dev.vyre.driver.planner.MegakernelMemoryException;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import dev.vyre.driver.planner.MegakernelTopologySelector;
import dev.vyre.driver.planner.MegakernelWaveDependencies;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** vyre's vectors E1-E15 (docs/PORTS.md, "Test vectors"): hits, misses, LRU eviction, hysteresis, downgrade, rebase, pinning, live telemetry. */
class CudaMegakernelPlanCacheTest {

  private static final CudaMegakernelDeviceKey DEVICE = CudaMegakernelPlanCacheKeyTest.DEVICE;
  private static final MegakernelGraphShape G = new MegakernelGraphShape(1_000, 4_000);
  private static final MegakernelMemoryBudget LOW = new MegakernelMemoryBudget(1_024, 16_384);
  private static final long MIB = 1 << 20;
  /** The key of the H100 this project's GPU tests run on (compute 9.0, cooperative launch). */
  private static final CudaMegakernelDeviceKey H100 = CudaMegakernelDeviceKey.fromCapabilities(9, 0, 32, true, 1_024);
  private static final MegakernelGraphShape LIVE_GRAPH = new MegakernelGraphShape(65_536, 262_144);

  @Test
  void cacheReusesPlanForSameGraphAnalysisDeviceAndPressureBucket() { // E1
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    CudaMegakernelPlanCacheKey key = key(42, Builtin.Ifds, 0.52, 2_400);
    CudaMegakernelCachedPlan first = cache.getOrInsertWith(key, () -> decision(FusedWave));
    CudaMegakernelCachedPlan second = cache.getOrInsertWith(key, () -> decision(SparseFrontier));
    assertEquals(first, second);
    assertEquals(FusedWave, second.topology());
    assertEquals(new CudaMegakernelPlanCacheStats(1, 1, 0, 1), cache.stats());
  }

  @Test
  void boundedCacheEvictsLruEntry() { // E4
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache(2);
    CudaMegakernelPlanCacheKey first = key(1, Builtin.Dataflow, 0.1, 1_000);
    CudaMegakernelPlanCacheKey second = key(2, Builtin.Dataflow, 0.1, 1_000);
    CudaMegakernelPlanCacheKey third = key(3, Builtin.Dataflow, 0.1, 1_000);
    cache.getOrInsertWith(first, () -> decision(SparseFrontier));
    cache.getOrInsertWith(second, () -> decision(HybridFrontier));
    cache.getOrInsertWith(first, () -> decision(DenseFrontier));
    cache.getOrInsertWith(third, () -> decision(FusedWave));
    assertEquals(new CudaMegakernelPlanCacheStats(1, 3, 1, 2), cache.stats());
    assertEquals(DenseFrontier, cache.getOrInsertWith(second, () -> decision(DenseFrontier)).topology());
  }

  @Test
  void cacheSelectsTopologyAndReusesPressureBucketPlan() { // E5
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    CudaMegakernelCachedPlan first = select(cache, identity(99), sample(0.90, MIB), LOW, 250, 0.95);
    CudaMegakernelCachedPlan second = select(cache, identity(99), sample(0.91, MIB),
        new MegakernelMemoryBudget(1_100, 16_384), 250, 0.95);
    assertEquals(first, second);
    assertEquals(FusedWave, first.topology());
    assertEquals(1, cache.stats().hits());
    assertEquals(1, cache.stats().misses());
  }

  @Test
  void cacheStabilizesTopologyAcrossAdjacentPressureBuckets() { // E6
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    assertEquals(DenseFrontier, select(cache, identity(99), sample(0.70, 512), LOW, 100, 0).topology());
    assertEquals(DenseFrontier, select(cache, identity(99), sample(0.68, 512), LOW, 100, 0).topology());
    assertEquals(new CudaMegakernelPlanCacheStats(0, 2, 0, 2), cache.stats());
  }

  @Test
  void cacheReselectsWhenMemoryPressureBucketChanges() { // E7
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    assertEquals(FusedWave, select(cache, identity(99), sample(0.90, MIB), LOW, 250, 0.95).topology());
    CudaMegakernelCachedPlan redZone = select(cache, identity(99), sample(0.90, MIB),
        new MegakernelMemoryBudget(15_500, 16_384), 250, 0.95);
    assertEquals(SparseFrontier, redZone.topology());
    assertEquals(0, cache.stats().hits());
    assertEquals(2, cache.stats().misses());
  }

  @Test
  void cacheReselectsWhenReadbackPressureChanges() { // E9
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    assertEquals(HybridFrontier, select(cache, identity(99), sample(0.50, 0), LOW, 250, 0.95).topology());
    assertEquals(FusedWave, select(cache, identity(99), sample(0.50, MIB), LOW, 250, 0.95).topology());
    assertEquals(2, cache.stats().misses());
  }

  @Test
  void cacheNeverSelectsFusedWaveWithoutGridSyncSupport() { // E10
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    CudaMegakernelDeviceKey noGridSync = new CudaMegakernelDeviceKey(12, 0, 32, false, true, 1024);
    CudaMegakernelPlanIdentity identity = new CudaMegakernelPlanIdentity(99, Builtin.Dataflow, noGridSync);
    assertEquals(HybridFrontier, select(cache, identity, sample(0.50, MIB), LOW, 250, 0.95).topology());
  }

  @Test
  void cacheBackedExecutionPlanRevalidatesMemoryOnHits() { // E11
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    MegakernelExecutionPlan first = cache.getOrPlanExecution(identity(99), sample(0.90, MIB), G, bytes(2_048, 131_072),
        250, 0.95);
    MegakernelExecutionPlan second = cache.getOrPlanExecution(identity(99), sample(0.91, MIB), G, bytes(2_048, 131_072),
        250, 0.95);
    assertEquals(FusedWave, first.topology());
    assertEquals(FusedWave, second.topology());
    assertEquals(8_192, second.memory().scratchBytes());
    assertFalse(second.downgradedToSparse());
    assertEquals(1, cache.stats().hits());
    assertEquals(1, cache.stats().misses());
  }

  @Test
  void cacheBackedExecutionPlanDowngradesToSparseWhenFusedDoesNotFit() { // E12
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    MegakernelExecutionPlan plan = cache.getOrPlanExecution(identity(99), sample(0.5, MIB), G, bytes(10_000, 80_000),
        250, 0.90);
    assertEquals(SparseFrontier, plan.topology());
    assertTrue(plan.downgradedToSparse());
    assertEquals(10_000, plan.memory().scratchBytes());
    assertEquals(FusedWave, plan.decision().topology());
    assertEquals(new CudaMegakernelPlanCacheStats(0, 1, 0, 1), cache.stats());
  }

  @Test
  void errorsAfterTheLookupStillLeaveTheCacheUpdated() { // docs/CONFORMANCE.md, "Plan cache sequences"
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    MegakernelMemoryException error = assertThrows(MegakernelMemoryException.class,
        () -> cache.getOrPlanExecution(identity(5), sample(0.5, MIB), G, bytes(2_048, 40_000), 250, 0.9));
    assertEquals(MegakernelMemoryException.Variant.OverBudget, error.variant());
    assertEquals("SparseFrontier", error.fields().get("topology"));
    assertEquals(new CudaMegakernelPlanCacheStats(0, 1, 0, 1), cache.stats());
    MegakernelMemoryException overflow = assertThrows(MegakernelMemoryException.class,
        () -> cache.getOrPlanExecution(identity(5), sample(0.5, MIB), new MegakernelGraphShape(-1L, 0),
            bytes(2_048, 40_000), 250, 0.9));
    assertEquals("node layout bytes", overflow.fields().get("field"));
    // The footprint overflows before the lookup, so this call leaves the cache alone.
    assertEquals(new CudaMegakernelPlanCacheStats(0, 1, 0, 1), cache.stats());
  }

  @Test
  void lruSerialRebaseKeepsOrderWithoutFailing() { // E13
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache(2);
    CudaMegakernelPlanCacheKey first = key(1, Builtin.Ifds, 0.10, 1_000);
    CudaMegakernelPlanCacheKey second = key(2, Builtin.Ifds, 0.20, 1_000);
    cache.getOrInsertWith(first, () -> decision(SparseFrontier));
    cache.getOrInsertWith(second, () -> decision(HybridFrontier));
    cache.serial = -1L;
    cache.getOrInsertWith(first, () -> decision(DenseFrontier));
    assertEquals(3, cache.lastSeen(first));
    assertEquals(2, cache.lastSeen(second));
    assertEquals(1, cache.stats().hits());
  }

  @Test
  void hitCounterPinsAtU64Max() { // E14
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    CudaMegakernelPlanCacheKey key = key(3, Builtin.Ifds, 0.1, 1_000);
    cache.getOrInsertWith(key, () -> decision(SparseFrontier));
    cache.hits = -1L;
    assertEquals(SparseFrontier, cache.getOrInsertWith(key, () -> decision(DenseFrontier)).topology());
    assertEquals(-1L, cache.stats().hits());
  }

  @Test
  void zeroEntriesStoresNothingAndNeverStabilizes() {
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache(0);
    assertEquals(DenseFrontier, select(cache, identity(99), sample(0.70, 512), LOW, 100, 0).topology());
    assertEquals(HybridFrontier, select(cache, identity(99), sample(0.68, 512), LOW, 100, 0).topology());
    assertEquals(DenseFrontier, select(cache, identity(99), sample(0.70, 512), LOW, 100, 0).topology());
    assertEquals(new CudaMegakernelPlanCacheStats(0, 3, 0, 0), cache.stats());
  }

  @Test
  void evictingAnIdentitysLatestPlanForgetsItsHysteresis() {
    CudaMegakernelPlanCache small = new CudaMegakernelPlanCache(1);
    select(small, identity(1), sample(0.70, 512), LOW, 100, 0);
    select(small, identity(2), sample(0.70, 512), LOW, 100, 0);
    assertEquals(HybridFrontier, select(small, identity(1), sample(0.68, 512), LOW, 100, 0).topology());
    assertEquals(2, small.stats().evictions());

    CudaMegakernelPlanCache roomy = new CudaMegakernelPlanCache(2);
    select(roomy, identity(1), sample(0.70, 512), LOW, 100, 0);
    select(roomy, identity(2), sample(0.70, 512), LOW, 100, 0);
    assertEquals(DenseFrontier, select(roomy, identity(1), sample(0.68, 512), LOW, 100, 0).topology());
  }

  @Test
  void clearKeepsCountersAndForgetsPlans() {
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    select(cache, identity(99), sample(0.70, 512), LOW, 100, 0);
    cache.clear();
    assertEquals(HybridFrontier, select(cache, identity(99), sample(0.68, 512), LOW, 100, 0).topology());
    assertEquals(new CudaMegakernelPlanCacheStats(0, 2, 0, 1), cache.stats());
    assertNotEquals(0, cache.serial);
  }

  /**
   * E15, vyre's GPU test {@code megakernel_scale_scheduler_contracts.rs} with its measurements as
   * inputs: add-one dispatches of 8 and 65,536 u32 elements read back {@code 32 * scale} and
   * {@code 262,144 * scale} bytes (vyre asserts at least the input length), the large one took
   * {@code largeWallNs}, and the small one's enqueue time is the launch overhead. The planning that
   * follows is pure. Its dense-or-fused expectation needs a launch overhead of at least 1,500 ns,
   * 15% of the 10,000 ns cost the test substitutes (see the next test).
   */
  @ParameterizedTest(name = "launch {0} ns, large dispatch {1} ns, readback x{2}")
  @CsvSource({"1500, 20000, 1", "5000, 50000, 1", "20000, 200000, 2", "1000000, 10000000, 1"})
  void liveTelemetryDrivesAScaleAwarePlanThatTheCacheReuses(double launchNs, double largeWallNs, long scale) { // E15
    long smallReadback = 32 * scale;
    long largeReadback = 262_144 * scale;
    MegakernelExecutionSample large = new MegakernelExecutionSample(largeWallNs, 0.95, largeReadback);
    MegakernelExecutionSample schedulerSmall = new MegakernelExecutionSample(100, 0.25, smallReadback);
    MegakernelExecutionSample schedulerLarge = new MegakernelExecutionSample(10_000, 0.95, largeReadback);
    double[] schedule = CudaMegakernelScheduler.scheduleMegakernelFromCudaSamples(
        List.of(schedulerSmall, schedulerLarge), launchNs, 64, 0.25);
    MegakernelMemoryBudget memory = new MegakernelMemoryBudget(2 * largeReadback, 16 * largeReadback);
    MegakernelTopologyDecision dense = MegakernelTopologySelector.selectMegakernelTopology(schedulerLarge, LIVE_GRAPH,
        memory, launchNs, schedule[1]);
    assertDenseOrFused(dense.topology());

    CudaMegakernelPlanCache executions = new CudaMegakernelPlanCache();
    CudaMegakernelPlanIdentity dataflow = new CudaMegakernelPlanIdentity(0xC0DA_5090L, Builtin.Dataflow, H100);
    MegakernelByteLayout bytes = new MegakernelByteLayout(16, 8, largeReadback, largeReadback / 4, largeReadback,
        64 * largeReadback);
    MegakernelExecutionPlan plan = executions.getOrPlanExecution(dataflow, schedulerLarge, LIVE_GRAPH, bytes, launchNs,
        schedule[1]);
    MegakernelExecutionSample denser = new MegakernelExecutionSample(10_000, Math.min(0.95 + 0.01, 1.0), largeReadback);
    MegakernelExecutionPlan cached = executions.getOrPlanExecution(dataflow, denser, LIVE_GRAPH, bytes, launchNs,
        schedule[1]);
    assertEquals(dense.topology(), plan.topology());
    assertEquals(plan.topology(), cached.topology());
    assertTrue(plan.memory().requiredBytes() <= plan.memory().budgetBytes());
    assertFalse(plan.downgradedToSparse());
    assertEquals(1, executions.stats().hits());

    CudaMegakernelFrontierExecutionPlan frontier = CudaMegakernelBarrierPlanner.planCudaFrontierMegakernelExecution(
        executions, new CudaMegakernelPlanIdentity(0xC0DA_5091L, Builtin.ParserFrontend, H100), schedulerLarge,
        LIVE_GRAPH, 16, 8, List.of(
            new MegakernelFrontierWave(largeReadback / 8, largeReadback / 16, largeReadback / 16),
            new MegakernelFrontierWave(largeReadback / 4, largeReadback / 16, largeReadback / 8),
            new MegakernelFrontierWave(largeReadback / 4, largeReadback / 16, largeReadback / 8),
            new MegakernelFrontierWave(largeReadback / 2, largeReadback / 8, largeReadback / 4)),
        MegakernelWaveDependencies.of(0, 1, 0, 2, 1, 3, 2, 3), 64 * largeReadback, launchNs, schedule[1]);
    assertEquals(2, frontier.barriers().globalBarriers());
    assertArrayEquals(new int[] {1, 2}, frontier.barriers().groupWaves(1));
    assertDenseOrFused(frontier.execution().topology());
    assertTrue(frontier.execution().memory().requiredBytes() <= frontier.execution().memory().budgetBytes());

    MegakernelExecutionTopology sparse = MegakernelTopologySelector.selectMegakernelTopology(
        new MegakernelExecutionSample(100, 0.01, smallReadback), LIVE_GRAPH,
        new MegakernelMemoryBudget(smallReadback, 16 * largeReadback), launchNs, schedule[0]).topology();
    assertTrue(sparse == WarpSparseFrontier || sparse == SparseFrontier, sparse::toString);

    CudaMegakernelPlanCache plans = new CudaMegakernelPlanCache();
    CudaMegakernelCachedPlan first = plans.getOrSelectTopology(dataflow, large, LIVE_GRAPH, memory, launchNs,
        schedule[1]);
    CudaMegakernelCachedPlan second = plans.getOrSelectTopology(dataflow,
        new MegakernelExecutionSample(largeWallNs, Math.min(0.95 + 0.01, 1.0), largeReadback), LIVE_GRAPH,
        new MegakernelMemoryBudget(memory.requiredBytes() + 256, memory.budgetBytes()), launchNs, schedule[1]);
    assertEquals(first, second);
    assertEquals(1, plans.stats().hits());
    CudaMegakernelCachedPlan redZone = plans.getOrSelectTopology(dataflow, large, LIVE_GRAPH,
        new MegakernelMemoryBudget(memory.budgetBytes() * 95 / 100, memory.budgetBytes()), launchNs, schedule[1]);
    assertEquals(SparseFrontier, redZone.topology());
  }

  @Test
  void liveContractNeedsFifteenPercentLaunchPressure() { // E15 [derived]: the edge of the swept range
    MegakernelExecutionSample large = new MegakernelExecutionSample(10_000, 0.95, 262_144);
    MegakernelMemoryBudget memory = new MegakernelMemoryBudget(2 * 262_144, 16 * 262_144);
    assertEquals(FusedWave, MegakernelTopologySelector.selectMegakernelTopology(large, LIVE_GRAPH, memory, 1_500, 0.8)
        .topology());
    assertEquals(MegakernelExecutionTopology.BlockDenseFrontier,
        MegakernelTopologySelector.selectMegakernelTopology(large, LIVE_GRAPH, memory, 1_499, 0.8).topology());
  }

  private static void assertDenseOrFused(MegakernelExecutionTopology topology) {
    assertTrue(topology == DenseFrontier || topology == FusedWave, topology::toString);
  }

  private static CudaMegakernelCachedPlan select(CudaMegakernelPlanCache cache, CudaMegakernelPlanIdentity identity,
      MegakernelExecutionSample sample, MegakernelMemoryBudget memory, double launch, double fusion) {
    return cache.getOrSelectTopology(identity, sample, G, memory, launch, fusion);
  }

  private static CudaMegakernelPlanIdentity identity(long hash) {
    return new CudaMegakernelPlanIdentity(hash, Builtin.Dataflow, DEVICE);
  }

  private static MegakernelExecutionSample sample(double density, long readback) {
    return new MegakernelExecutionSample(1_000.0, density, readback);
  }

  private static MegakernelByteLayout bytes(long scratch, long budget) {
    return new MegakernelByteLayout(16, 8, 4_096, scratch, 512, budget);
  }

  private static CudaMegakernelPlanCacheKey key(long hash, CudaMegakernelAnalysisKind kind, double density,
      long memoryBps) {
    return CudaMegakernelPlanCacheKey.of(new CudaMegakernelPlanIdentity(hash, kind, DEVICE), density, memoryBps, 0, 0, 0.0);
  }

  private static MegakernelTopologyDecision decision(MegakernelExecutionTopology topology) {
    return new MegakernelTopologyDecision(topology, 1_000, 20_000, 2_000);
  }
}
