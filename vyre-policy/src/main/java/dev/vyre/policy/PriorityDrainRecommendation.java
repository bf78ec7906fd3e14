package dev.vyre.policy;

/**
 * Whether a priority scheduler should drain its counters now, and how much headroom they have.
 * u64 values are {@code long} bit patterns; {@code maxPriorityAge} is a u32 held in a {@code long}.
 *
 * @param shouldDrain true unless the reason is {@link PriorityDrainReason#None}
 * @param reason the first matching reason
 * @param requeueCount the requeue counter
 * @param agedPromotions the aged-promotion counter
 * @param maxPriorityAge the largest priority age observed
 * @param requeueCounterHeadroom u64::MAX minus the requeue counter
 * @param agedPromotionCounterHeadroom u64::MAX minus the aged-promotion counter
 * @param fix what to do, {@link #FIX}
 */
public record PriorityDrainRecommendation(
    boolean shouldDrain,
    PriorityDrainReason reason,
    long requeueCount,
    long agedPromotions,
    long maxPriorityAge,
    long requeueCounterHeadroom,
    long agedPromotionCounterHeadroom,
    String fix) {

  /** vyre's fix text. */
  public static final String FIX = "drain scheduler telemetry before counters reach u64::MAX";
}
