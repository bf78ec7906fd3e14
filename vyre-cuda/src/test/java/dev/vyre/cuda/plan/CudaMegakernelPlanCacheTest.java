package dev.vyre.cuda.plan;

import static dev.vyre.driver.planner.MegakernelExecutionTopology.DenseFrontier;
import static dev.vyre.driver.planner.MegakernelExecutionTopology.FusedWave;
import static dev.vyre.driver.planner.MegakernelExecutionTopology.HybridFrontier;
import static dev.vyre.driver.planner.MegakernelExecutionTopology.SparseFrontier;
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
import dev.vyre.driver.planner.MegakernelGraphShape;
import dev.vyre.driver.planner.MegakernelMemoryBudget;
import dev.vyre.driver.planner.MegakernelMemoryException;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import org.junit.jupiter.api.Test;

/** vyre-driver-cuda.md §2.5 E1-E14: hits, misses, LRU eviction, hysteresis, downgrade, rebase and pinning. */
class CudaMegakernelPlanCacheTest {

  private static final CudaMegakernelDeviceKey DEVICE = CudaMegakernelPlanCacheKeyTest.DEVICE;
  private static final MegakernelGraphShape G = new MegakernelGraphShape(1_000, 4_000);
  private static final MegakernelMemoryBudget LOW = new MegakernelMemoryBudget(1_024, 16_384);
  private static final long MIB = 1 << 20;

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
  void errorsAfterTheLookupStillLeaveTheCacheUpdated() { // CONFORMANCE §7b
    CudaMegakernelPlanCache cache = new CudaMegakernelPlanCache();
    MegakernelMemoryException error = assertThrows(MegakernelMemoryException.class,
        () -> cache.getOrPlanExecution(identity(5), sample(0.5, MIB), G, bytes(2_048, 40_000), 250, 0.9));
    assertEquals("OverBudget", error.variant());
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
