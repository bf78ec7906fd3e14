package dev.vyre.runtime.tenant;

/**
 * One tenant's host-visible counters (vyre's {@code TenantRuntimeCounters}); u64 values.
 *
 * @param outstandingSlots {@code publishedCount - drainedCount}, saturating at zero
 * @param quiesceWaitNs nanoseconds spent in {@link Tenant#quiesce} so far
 */
public record TenantRuntimeCounters(int tenantId, long publishedCount, long drainedCount, long outstandingSlots,
    long maxOutstandingSlots, long quiesceCalls, long quiesceTimeouts, long quiesceWaitNs) {}
