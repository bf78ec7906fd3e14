package dev.vyre.policy;

/** Why priority scheduler telemetry should be drained, the first matching reason in declaration order after {@link #None}. */
public enum PriorityDrainReason {
  None("none"),
  PendingTelemetry("pending_telemetry"),
  RequeueCounterNearLimit("requeue_counter_near_limit"),
  AgedPromotionCounterNearLimit("aged_promotion_counter_near_limit"),
  RequeueCounterExhausted("requeue_counter_exhausted"),
  AgedPromotionCounterExhausted("aged_promotion_counter_exhausted");

  private final String label;

  PriorityDrainReason(String label) {
    this.label = label;
  }

  /** vyre's stable label, e.g. {@code requeue_counter_near_limit}. */
  public String label() {
    return label;
  }
}
