package dev.vyre.policy;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * vyre's per-thread launch-recommendation cache: pure memoization of {@code recommend}, keyed by
 * (policy, original request), 128 entries, least recently used evicted.
 *
 * <p>vyre stamps entries from a logical clock, refreshes the stamp on a hit and on re-insertion,
 * and evicts the minimum stamp other than the entry just inserted. An access-ordered
 * {@link LinkedHashMap} keeps exactly that order (its eldest entry is the minimum stamp, and the
 * entry just inserted is the youngest), so no clock is kept; a 64-bit clock would not wrap anyway.
 */
final class LaunchRecommendationCache {

  /** vyre's capacity per thread. */
  static final int CAPACITY = 128;

  private static final ThreadLocal<LaunchRecommendationCache> CURRENT =
      ThreadLocal.withInitial(LaunchRecommendationCache::new);

  private final Map<Key, MegakernelLaunchRecommendation> entries =
      new LinkedHashMap<>(2 * CAPACITY, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, MegakernelLaunchRecommendation> eldest) {
          return size() > CAPACITY;
        }
      };
  private long hits;
  private long misses;

  /** The calling thread's cache. */
  static LaunchRecommendationCache current() {
    return CURRENT.get();
  }

  /** The cached recommendation, refreshed as most recently used, or null; counts a hit or a miss. */
  MegakernelLaunchRecommendation get(Key key) {
    MegakernelLaunchRecommendation cached = entries.get(key);
    if (cached == null) {
      misses++;
    } else {
      hits++;
    }
    return cached;
  }

  /** Stores a recommendation as most recently used, evicting the least recently used past capacity. */
  void insert(Key key, MegakernelLaunchRecommendation recommendation) {
    entries.put(key, recommendation);
  }

  MegakernelLaunchCacheStats stats() {
    return new MegakernelLaunchCacheStats(entries.size(), hits, misses);
  }

  /** Drops every entry and zeroes the counters. */
  void clear() {
    entries.clear();
    hits = 0;
    misses = 0;
  }

  /**
   * The cache key. Its hash leaves the policy out: nearly every caller uses one policy, so hashing
   * it would only cost time, and equal keys still hash equally.
   */
  record Key(MegakernelLaunchPolicy policy, MegakernelLaunchRequest request) {

    @Override
    public boolean equals(Object other) {
      return other instanceof Key key && request.equals(key.request)
          && (policy == key.policy || policy.equals(key.policy));
    }

    @Override
    public int hashCode() {
      return request.hashCode();
    }
  }
}
