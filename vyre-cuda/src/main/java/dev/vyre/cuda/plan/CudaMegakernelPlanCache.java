package dev.vyre.cuda.plan;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.planner.MegakernelByteLayout;
import dev.vyre.driver.planner.MegakernelExecutionPlan;
import dev.vyre.driver.planner.MegakernelExecutionSample;
import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelGraphShape;
import dev.vyre.driver.planner.MegakernelMemoryBudget;
import dev.vyre.driver.planner.MegakernelMemoryException;
import dev.vyre.driver.planner.MegakernelMemoryPlan;
import dev.vyre.driver.planner.MegakernelMemoryPlanner;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import dev.vyre.driver.planner.MegakernelTopologySelector;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * vyre's {@code CudaMegakernelPlanCache}: a bounded LRU of topology decisions keyed by plan
 * identity and pressure buckets. It also remembers the latest topology of each identity, so a
 * miss next to a known plan selects with hysteresis instead of flapping between topologies.
 *
 * <p>Every lookup advances a serial that stamps the entry it touches; eviction is exact LRU by
 * that stamp. When the serial would overflow, the entries are renumbered 1..n in LRU order first.
 * Counters pin at u64::MAX. Not thread-safe.
 */
public final class CudaMegakernelPlanCache {

  public static final long DEFAULT_MAX_MEGAKERNEL_PLANS = 256;

  /** Access-ordered, so iteration runs from the least to the most recently seen entry. */
  private final LinkedHashMap<CudaMegakernelPlanCacheKey, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private final Map<CudaMegakernelPlanIdentity, Latest> latestByIdentity = new HashMap<>();
  private final long maxEntries;
  /** Package-private, like vyre's {@code pub(crate)}, so tests can reach the rebase and pinning edges. */
  long serial;
  long hits;
  private long misses;
  private long evictions;

  private static final class Entry {
    final CudaMegakernelCachedPlan plan;
    long lastSeen;

    Entry(CudaMegakernelCachedPlan plan, long lastSeen) {
      this.plan = plan;
      this.lastSeen = lastSeen;
    }
  }

  private record Latest(long serial, MegakernelExecutionTopology topology) {}

  /** A cache of {@link #DEFAULT_MAX_MEGAKERNEL_PLANS} entries. */
  public CudaMegakernelPlanCache() {
    this(DEFAULT_MAX_MEGAKERNEL_PLANS);
  }

  /** A cache of at most {@code maxEntries} entries (unsigned); 0 stores nothing. */
  public CudaMegakernelPlanCache(long maxEntries) {
    this.maxEntries = maxEntries;
  }

  /** vyre's {@code get_or_insert_with}: the cached plan, or the one {@code build} decides, stored. */
  public CudaMegakernelCachedPlan getOrInsertWith(CudaMegakernelPlanCacheKey key,
      Supplier<MegakernelTopologyDecision> build) {
    long now = advanceSerial();
    Entry hit = entries.get(key);
    if (hit != null) {
      hits = pinningIncrement(hits);
      hit.lastSeen = now;
      updateLatest(key.identity(), now, hit.plan.topology());
      return hit.plan;
    }
    misses = pinningIncrement(misses);
    if (maxEntries == 0) {
      return CudaMegakernelCachedPlan.of(build.get());
    }
    evictUntilBelowLimit();
    CudaMegakernelCachedPlan plan = CudaMegakernelCachedPlan.of(build.get());
    entries.put(key, new Entry(plan, now));
    updateLatest(key.identity(), now, plan.topology());
    return plan;
  }

  /**
   * vyre's {@code get_or_select_topology}: buckets the sample in the cache's pressure convention
   * and, on a miss, selects a topology, with hysteresis against the identity's latest topology
   * when there is one. Without grid sync the fusion pressure is 0, so FusedWave is never chosen.
   */
  public CudaMegakernelCachedPlan getOrSelectTopology(CudaMegakernelPlanIdentity identity,
      MegakernelExecutionSample sample, MegakernelGraphShape graph, MegakernelMemoryBudget memory,
      double launchOverheadNs, double fusionPressure) {
    double fusion = identity.device().supportsGridSync() ? fusionPressure : 0.0;
    CudaMegakernelPlanCacheKey key = CudaMegakernelPlanCacheKey.of(identity, sample.frontierDensity(),
        CudaMegakernelPlanCacheKey.memoryPressureBps(memory.requiredBytes(), memory.budgetBytes()),
        sample.readbackBytes(), CudaMegakernelPlanCacheKey.launchPressureBps(sample.dispatchCostNs(), launchOverheadNs),
        fusion);
    Latest previous = latestByIdentity.get(identity);
    return getOrInsertWith(key, () -> previous == null
        ? MegakernelTopologySelector.selectMegakernelTopology(sample, graph, memory, launchOverheadNs, fusion)
        : MegakernelTopologySelector.selectMegakernelTopologyStable(sample, graph, memory, launchOverheadNs, fusion,
            previous.topology()));
  }

  /**
   * vyre's {@code get_or_plan_execution}: keys the lookup on the sparse lower-bound footprint
   * (priced against an unlimited budget), then validates the cached topology against the real
   * budget, downgrading to sparse when it no longer fits and sparse does.
   *
   * @throws MegakernelMemoryException on byte-count overflow, or {@code OverBudget} when not even
   *     the sparse plan fits; the cache is updated either way
   */
  public MegakernelExecutionPlan getOrPlanExecution(CudaMegakernelPlanIdentity identity,
      MegakernelExecutionSample sample, MegakernelGraphShape graph, MegakernelByteLayout bytes,
      double launchOverheadNs, double fusionPressure) {
    MegakernelMemoryPlan sparseFootprint = MegakernelMemoryPlanner.planMegakernelMemoryBudget(
        MegakernelExecutionTopology.SparseFrontier, graph, bytes.withBudget(Unsigned.U64_MAX));
    CudaMegakernelCachedPlan cached = getOrSelectTopology(identity, sample, graph,
        new MegakernelMemoryBudget(sparseFootprint.requiredBytes(), bytes.budgetBytes()), launchOverheadNs,
        fusionPressure);
    try {
      MegakernelMemoryPlan memory = MegakernelMemoryPlanner.planMegakernelMemoryBudget(cached.topology(), graph, bytes);
      return new MegakernelExecutionPlan(cached.topology(), memory, false, cached.decision());
    } catch (MegakernelMemoryException e) {
      if (!e.isOverBudget() || cached.topology() == MegakernelExecutionTopology.SparseFrontier) {
        throw e;
      }
      MegakernelMemoryPlan sparse = MegakernelMemoryPlanner.planMegakernelMemoryBudget(
          MegakernelExecutionTopology.SparseFrontier, graph, bytes);
      return new MegakernelExecutionPlan(MegakernelExecutionTopology.SparseFrontier, sparse, true, cached.decision());
    }
  }

  public CudaMegakernelPlanCacheStats stats() {
    return new CudaMegakernelPlanCacheStats(hits, misses, evictions, entries.size());
  }

  /** Drops every plan and the latest-topology memory; keeps the counters and the serial. */
  public void clear() {
    entries.clear();
    latestByIdentity.clear();
  }

  /** The serial that last touched {@code key}, or -1 when it is not cached; for tests. */
  long lastSeen(CudaMegakernelPlanCacheKey key) {
    // Iterating leaves the access order alone; get() would count as an access.
    for (Map.Entry<CudaMegakernelPlanCacheKey, Entry> entry : entries.entrySet()) {
      if (entry.getKey().equals(key)) {
        return entry.getValue().lastSeen;
      }
    }
    return -1;
  }

  private long advanceSerial() {
    if (serial == -1L) {
      rebaseSerials();
    }
    return ++serial;
  }

  /** Renumbers the entries 1..n in LRU order and rebuilds the latest topology of each identity. */
  private void rebaseSerials() {
    latestByIdentity.clear();
    long renumbered = 0;
    for (Map.Entry<CudaMegakernelPlanCacheKey, Entry> entry : entries.entrySet()) {
      entry.getValue().lastSeen = ++renumbered;
      updateLatest(entry.getKey().identity(), renumbered, entry.getValue().plan.topology());
    }
    serial = renumbered;
  }

  private void evictUntilBelowLimit() {
    while (Long.compareUnsigned(entries.size(), maxEntries) >= 0) {
      var eldest = entries.entrySet().iterator();
      Map.Entry<CudaMegakernelPlanCacheKey, Entry> lru = eldest.next();
      eldest.remove();
      CudaMegakernelPlanIdentity identity = lru.getKey().identity();
      Latest latest = latestByIdentity.get(identity);
      Entry evicted = lru.getValue();
      if (latest != null && latest.serial() == evicted.lastSeen && latest.topology() == evicted.plan.topology()) {
        recomputeLatest(identity);
      }
      evictions = pinningIncrement(evictions);
    }
  }

  private void updateLatest(CudaMegakernelPlanIdentity identity, long stamp, MegakernelExecutionTopology topology) {
    Latest latest = latestByIdentity.get(identity);
    if (latest == null || Long.compareUnsigned(latest.serial(), stamp) <= 0) {
      latestByIdentity.put(identity, new Latest(stamp, topology));
    }
  }

  private void recomputeLatest(CudaMegakernelPlanIdentity identity) {
    Latest latest = null;
    for (Map.Entry<CudaMegakernelPlanCacheKey, Entry> entry : entries.entrySet()) {
      Entry value = entry.getValue();
      if (entry.getKey().identity().equals(identity)
          && (latest == null || Long.compareUnsigned(value.lastSeen, latest.serial()) > 0)) {
        latest = new Latest(value.lastSeen, value.plan.topology());
      }
    }
    if (latest == null) {
      latestByIdentity.remove(identity);
    } else {
      latestByIdentity.put(identity, latest);
    }
  }

  /** vyre's {@code pinning_increment_u64}: a counter that stops at u64::MAX instead of wrapping. */
  private static long pinningIncrement(long counter) {
    return Unsigned.saturatingAddU64(counter, 1);
  }
}
