package dev.vyre.policy;

import static dev.vyre.policy.MegakernelLaunchPolicyTest.POLICY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The cache vectors of docs/PORTS.md, "Recommendation cache". */
class LaunchRecommendationCacheTest {

  private static final MegakernelLaunchRecommendation ANY = POLICY.compute(MegakernelLaunchRequest.direct(1, 64, 256), null);

  private static LaunchRecommendationCache.Key key(long queueLen) {
    return new LaunchRecommendationCache.Key(POLICY, MegakernelLaunchRequest.direct(queueLen, 64, 256));
  }

  @Test
  void aRefreshedEntrySurvivesEvictionOfTheLeastRecentlyUsed() {
    LaunchRecommendationCache cache = new LaunchRecommendationCache();
    for (long q = 1; q <= 128; q++) {
      cache.insert(key(q), ANY);
    }
    assertNotNull(cache.get(key(1)));
    assertEquals(new MegakernelLaunchCacheStats(128, 1, 0), cache.stats());
    cache.insert(key(129), ANY);
    assertEquals(128, cache.stats().entries());
    assertNotNull(cache.get(key(1)));
    assertEquals(2, cache.stats().hits());
    assertNull(cache.get(key(2)));
    assertEquals(new MegakernelLaunchCacheStats(128, 2, 1), cache.stats());
  }

  @Test
  void reinsertingAKeyOverwritesWithoutDuplicates() {
    LaunchRecommendationCache cache = new LaunchRecommendationCache();
    cache.insert(key(1), ANY);
    cache.insert(key(1), ANY);
    assertEquals(1, cache.stats().entries());
  }

  @Test
  void clearDropsEntriesAndCounters() {
    LaunchRecommendationCache cache = new LaunchRecommendationCache();
    cache.insert(key(1), ANY);
    cache.get(key(1));
    cache.get(key(2));
    cache.clear();
    assertEquals(new MegakernelLaunchCacheStats(0, 0, 0), cache.stats());
  }

  @Test
  void keysWithEqualPoliciesMatch() {
    MegakernelLaunchPolicy copy = new MegakernelLaunchPolicy(MegakernelSizingPolicy.standard(), 1024, 2, 4, 8, 4,
        4096, 32, 500, 4000, 8500, 65536, 16);
    LaunchRecommendationCache cache = new LaunchRecommendationCache();
    cache.insert(key(1), ANY);
    assertNotNull(cache.get(new LaunchRecommendationCache.Key(copy, MegakernelLaunchRequest.direct(1, 64, 256))));
    MegakernelLaunchPolicy other = new MegakernelLaunchPolicy(MegakernelSizingPolicy.standard(), 1024, 3, 4, 8, 4,
        4096, 32, 500, 4000, 8500, 65536, 16);
    assertNull(cache.get(new LaunchRecommendationCache.Key(other, MegakernelLaunchRequest.direct(1, 64, 256))));
  }

  @Test
  void eachThreadHasItsOwnCache() throws Exception {
    LaunchRecommendationCache mine = LaunchRecommendationCache.current();
    LaunchRecommendationCache theirs = CompletableFuture.supplyAsync(LaunchRecommendationCache::current).get();
    assertEquals(mine, LaunchRecommendationCache.current());
    assertEquals(false, mine == theirs);
  }
}
