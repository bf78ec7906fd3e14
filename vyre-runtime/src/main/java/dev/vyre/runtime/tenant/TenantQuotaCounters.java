package dev.vyre.runtime.tenant;

/** One tenant's staging-byte and resident-handle reservations against its caps (vyre's {@code TenantQuotaCounters}). */
public record TenantQuotaCounters(int tenantId, long stagingBytes, long maxStagingBytes, long residentHandles,
    long maxResidentHandles) {}
