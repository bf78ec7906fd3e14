package dev.vyre.runtime.tenant;

/**
 * A tenant's resource quota (vyre's {@code TenantQuota}): ring slots it may keep outstanding,
 * staging bytes and resident handles it may hold. Values are u64 bit patterns; registration raises
 * each to at least 1.
 */
public record TenantQuota(long maxOutstandingSlots, long maxStagingBytes, long maxResidentHandles) {

  /** u64::MAX: no bound. */
  public static final long UNBOUNDED = -1L;

  public static TenantQuota unbounded() {
    return new TenantQuota(UNBOUNDED, UNBOUNDED, UNBOUNDED);
  }

  public static TenantQuota bounded(long maxOutstandingSlots, long maxStagingBytes, long maxResidentHandles) {
    return new TenantQuota(maxOutstandingSlots, maxStagingBytes, maxResidentHandles);
  }

  /** Each bound raised to at least 1, as registration stores it (a zero cap would refuse everything). */
  TenantQuota normalized() {
    return new TenantQuota(atLeastOne(maxOutstandingSlots), atLeastOne(maxStagingBytes), atLeastOne(maxResidentHandles));
  }

  private static long atLeastOne(long bound) {
    return bound == 0 ? 1 : bound;
  }
}
