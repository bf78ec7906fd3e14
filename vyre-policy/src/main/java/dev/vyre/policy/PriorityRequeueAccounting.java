package dev.vyre.policy;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;

/**
 * Requeue and aging counters of a priority-aware scheduler: a mutable accumulator, one per
 * scheduler, that tells when its telemetry should be drained. Counters are u64 bit patterns, the
 * age a u32 held in a {@code long}.
 */
public final class PriorityRequeueAccounting {

  /** vyre's {@code PRIORITY_COUNTER_DRAIN_HEADROOM}: drain once a counter is this close to u64::MAX. */
  public static final long DRAIN_HEADROOM = 1024;

  private long requeueCount;
  private long agedPromotions;
  private long maxPriorityAge;

  /** Zero counters. */
  public PriorityRequeueAccounting() {}

  /** Counters decoded from telemetry. */
  public PriorityRequeueAccounting(long requeueCount, long agedPromotions, long maxPriorityAge) {
    this.requeueCount = requeueCount;
    this.agedPromotions = agedPromotions;
    this.maxPriorityAge = RangeCheck.u32("max_priority_age", maxPriorityAge);
  }

  public long requeueCount() {
    return requeueCount;
  }

  public long agedPromotions() {
    return agedPromotions;
  }

  public long maxPriorityAge() {
    return maxPriorityAge;
  }

  /** Records one requeue of a slot aged {@code ageTicks} (u32); the counter saturates at u64::MAX. */
  public void recordRequeue(long ageTicks) {
    observeAge(ageTicks);
    requeueCount = Unsigned.saturatingAddU64(requeueCount, 1);
  }

  /** Records one aging promotion; the counter saturates at u64::MAX. */
  public void recordAgedPromotion(long ageTicks) {
    observeAge(ageTicks);
    agedPromotions = Unsigned.saturatingAddU64(agedPromotions, 1);
  }

  /**
   * Records one requeue, refusing to saturate.
   *
   * @throws BackendException when the counter is already u64::MAX; nothing changes then
   */
  public void tryRecordRequeue(long ageTicks) {
    if (requeueCount == Unsigned.U64_MAX) {
      throw BackendException.other("megakernel priority requeue_count overflowed u64. Fix: " + PriorityDrainRecommendation.FIX + ".");
    }
    recordRequeue(ageTicks);
  }

  /**
   * Records one aging promotion, refusing to saturate.
   *
   * @throws BackendException when the counter is already u64::MAX; nothing changes then
   */
  public void tryRecordAgedPromotion(long ageTicks) {
    if (agedPromotions == Unsigned.U64_MAX) {
      throw BackendException.other("megakernel aged_promotions overflowed u64. Fix: " + PriorityDrainRecommendation.FIX + ".");
    }
    recordAgedPromotion(ageTicks);
  }

  /** Whether to drain now: exhausted counters first, then near-limit ones, then any pending telemetry. */
  public PriorityDrainRecommendation drainRecommendation() {
    long requeueHeadroom = Unsigned.U64_MAX - requeueCount;
    long agedHeadroom = Unsigned.U64_MAX - agedPromotions;
    PriorityDrainReason reason;
    if (requeueCount == Unsigned.U64_MAX) {
      reason = PriorityDrainReason.RequeueCounterExhausted;
    } else if (agedPromotions == Unsigned.U64_MAX) {
      reason = PriorityDrainReason.AgedPromotionCounterExhausted;
    } else if (Unsigned.compareU64(requeueHeadroom, DRAIN_HEADROOM) <= 0) {
      reason = PriorityDrainReason.RequeueCounterNearLimit;
    } else if (Unsigned.compareU64(agedHeadroom, DRAIN_HEADROOM) <= 0) {
      reason = PriorityDrainReason.AgedPromotionCounterNearLimit;
    } else if (requeueCount != 0 || agedPromotions != 0 || maxPriorityAge != 0) {
      reason = PriorityDrainReason.PendingTelemetry;
    } else {
      reason = PriorityDrainReason.None;
    }
    return new PriorityDrainRecommendation(reason != PriorityDrainReason.None, reason, requeueCount, agedPromotions,
        maxPriorityAge, requeueHeadroom, agedHeadroom, PriorityDrainRecommendation.FIX);
  }

  private void observeAge(long ageTicks) {
    maxPriorityAge = Math.max(maxPriorityAge, RangeCheck.u32("age_ticks", ageTicks));
  }

  @Override
  public String toString() {
    return "PriorityRequeueAccounting[requeueCount=" + Unsigned.u64String(requeueCount) + ", agedPromotions="
        + Unsigned.u64String(agedPromotions) + ", maxPriorityAge=" + maxPriorityAge + "]";
  }
}
