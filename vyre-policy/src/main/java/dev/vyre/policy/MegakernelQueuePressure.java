package dev.vyre.policy;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;

/** Host-side pressure classification of the queue behind one megakernel launch. */
public enum MegakernelQueuePressure {
  /** No logical slots are queued. */
  Empty,
  /** The queue is below the available worker lanes. */
  Light,
  /** The queue is large enough to keep the submitted workers occupied. */
  Balanced,
  /** The queue is several waves deep or already showing requeue pressure. */
  Saturated;

  /**
   * The pressure of {@code queueLen} items on {@code lanes} worker lanes (u64, zero counted as one):
   * any requeue, or {@code saturatedWaves} full waves, saturates the queue.
   *
   * @throws BackendException when {@code lanes * saturatedWaves} overflows u64
   */
  public static MegakernelQueuePressure classify(long queueLen, long lanes, long requeueCount, long saturatedWaves) {
    if (queueLen == 0) {
      return Empty;
    }
    long activeLanes = lanes == 0 ? 1 : lanes;
    if (Unsigned.mulOverflows(activeLanes, saturatedWaves)) {
      throw BackendException.other("megakernel pressure wave threshold overflowed u64. "
          + "Fix: reduce worker lanes or saturated_waves.");
    }
    if (requeueCount != 0 || Unsigned.compareU64(queueLen, activeLanes * saturatedWaves) >= 0) {
      return Saturated;
    }
    return Unsigned.compareU64(queueLen, activeLanes) >= 0 ? Balanced : Light;
  }
}
