package dev.vyre.cuda.plan;

/**
 * vyre's {@code CudaMegakernelPlanCacheStats}. The counters are unsigned and pin at u64::MAX
 * instead of wrapping.
 *
 * @param hits lookups served from the cache
 * @param misses lookups that selected a new topology
 * @param evictions entries dropped by the LRU bound
 * @param entries entries held now
 */
public record CudaMegakernelPlanCacheStats(long hits, long misses, long evictions, long entries) {}
