package dev.vyre.policy;

/**
 * Queue length and caller-requested worker groups for {@link
 * MegakernelSizingPolicy#calculateOptimalGrid}; u32 values held in a {@code long}, zero workers
 * meaning "derive from occupancy".
 */
public record MegakernelGridRequest(long queueLen, long requestedWorkerGroups) {

  public MegakernelGridRequest {
    RangeCheck.u32("queue_len", queueLen);
    RangeCheck.u32("requested_worker_groups", requestedWorkerGroups);
  }
}
