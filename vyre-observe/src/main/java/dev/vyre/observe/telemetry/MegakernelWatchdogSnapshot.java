package dev.vyre.observe.telemetry;

import dev.vyre.runtime.KernelHealth;

/**
 * Health of a persistent kernel between two snapshots, derived without touching the device
 * (vyre's {@code MegakernelWatchdogSnapshot}). A stall is suspected when work is queued, DONE_COUNT
 * did not move, and no slot faulted: {@link KernelHealth#suspectedStall}, the verdict the runtime's
 * watchdog acts on.
 *
 * @param doneDelta DONE_COUNT growth since the previous snapshot (u32)
 * @param queueDepth queue depth now
 * @param faultSlots FAULT slots now
 * @param requeueSlots REQUEUE slots now
 * @param gpuIdlePpm EMPTY slots per million now
 * @param suspectedStall {@code queueDepth > 0 && doneDelta == 0 && faultSlots == 0}
 */
public record MegakernelWatchdogSnapshot(long doneDelta, long queueDepth, long faultSlots, long requeueSlots,
    long gpuIdlePpm, boolean suspectedStall) {

  /** vyre's {@code health_since}: {@code current} compared with {@code previous}. */
  static MegakernelWatchdogSnapshot between(RingTelemetry previous, RingTelemetry current) {
    MegakernelRuntimeCounters counters = current.runtimeCounters();
    long before = previous.control().doneCount();
    long now = current.control().doneCount();
    if (now < before) {
      throw TelemetryErrors.doneCounterBackwards(before, now);
    }
    long doneDelta = now - before;
    boolean stall = KernelHealth.suspectedStall(counters.queueDepth(), doneDelta, counters.faultSlots());
    return new MegakernelWatchdogSnapshot(doneDelta, counters.queueDepth(), counters.faultSlots(),
        counters.requeueSlots(), counters.gpuIdlePpm(), stall);
  }
}
