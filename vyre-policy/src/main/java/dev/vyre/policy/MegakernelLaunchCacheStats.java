package dev.vyre.policy;

/**
 * The calling thread's launch-recommendation cache counters.
 *
 * @param entries live entries the thread retains
 * @param hits (u64) lookups served without recomputing
 * @param misses (u64) lookups that needed the policy recomputed
 */
public record MegakernelLaunchCacheStats(long entries, long hits, long misses) {}
