package dev.vyre.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;
import org.junit.jupiter.api.Test;

class PriorityRequeueAccountingTest {

  private static final long MAX = Unsigned.U64_MAX;

  private static PriorityDrainRecommendation drain(long requeues, long aged, long age) {
    return new PriorityRequeueAccounting(requeues, aged, age).drainRecommendation();
  }

  @Test
  void pa1RequeueCounterNearItsLimit() {
    assertEquals(new PriorityDrainRecommendation(true, PriorityDrainReason.RequeueCounterNearLimit, MAX - 8, 3, 64, 8,
        MAX - 3, "drain scheduler telemetry before counters reach u64::MAX"), drain(MAX - 8, 3, 64));
  }

  @Test
  void pa2NothingToDrain() {
    PriorityDrainRecommendation none = new PriorityRequeueAccounting().drainRecommendation();
    assertFalse(none.shouldDrain());
    assertEquals(PriorityDrainReason.None, none.reason());
    assertEquals(MAX, none.requeueCounterHeadroom());
    assertEquals(MAX, none.agedPromotionCounterHeadroom());
  }

  @Test
  void reasonsInPrecedenceOrder() {
    assertEquals(PriorityDrainReason.PendingTelemetry, drain(0, 0, 5).reason());
    assertEquals(PriorityDrainReason.RequeueCounterExhausted, drain(MAX, MAX, 0).reason());
    assertEquals(PriorityDrainReason.AgedPromotionCounterExhausted, drain(MAX - 1, MAX, 0).reason());
    assertEquals(PriorityDrainReason.AgedPromotionCounterNearLimit, drain(5, MAX - 1024, 0).reason());
    assertEquals(PriorityDrainReason.PendingTelemetry, drain(5, MAX - 1025, 0).reason());
    assertEquals("aged_promotion_counter_near_limit", PriorityDrainReason.AgedPromotionCounterNearLimit.label());
  }

  @Test
  void recordingSaturatesAndTracksTheOldestAge() {
    PriorityRequeueAccounting accounting = new PriorityRequeueAccounting(MAX, 0, 3);
    accounting.recordRequeue(9);
    accounting.recordAgedPromotion(4);
    assertEquals(MAX, accounting.requeueCount());
    assertEquals(1, accounting.agedPromotions());
    assertEquals(9, accounting.maxPriorityAge());
  }

  @Test
  void checkedRecordingRefusesToSaturate() {
    PriorityRequeueAccounting accounting = new PriorityRequeueAccounting(MAX, MAX, 0);
    BackendException requeue = assertThrows(BackendException.class, () -> accounting.tryRecordRequeue(7));
    assertEquals("megakernel priority requeue_count overflowed u64. "
        + "Fix: drain scheduler telemetry before counters reach u64::MAX.", requeue.getMessage());
    assertThrows(BackendException.class, () -> accounting.tryRecordAgedPromotion(7));
    assertEquals(0, accounting.maxPriorityAge());
    PriorityRequeueAccounting fresh = new PriorityRequeueAccounting();
    fresh.tryRecordRequeue(2);
    fresh.tryRecordAgedPromotion(1);
    assertTrue(fresh.drainRecommendation().shouldDrain());
    assertEquals(1, fresh.requeueCount());
  }
}
