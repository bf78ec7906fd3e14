package dev.vyre.observe.telemetry;

import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.SlotLayout;

/** vyre's telemetry error texts in one place, so decoders, watchdog and conform agree on them. */
final class TelemetryErrors {

  static final long MIN_CONTROL_BYTES = 4L * ControlLayout.CONTROL_MIN_WORDS;

  private TelemetryErrors() {}

  static PipelineException controlSnapshot(long byteLen) {
    return PipelineException.backend("megakernel control snapshot has " + byteLen + " bytes, expected at least "
        + MIN_CONTROL_BYTES + " and 4-byte alignment. Fix: capture the full control buffer.");
  }

  static PipelineException ringSnapshot(long byteLen) {
    return PipelineException.backend("megakernel ring snapshot has " + byteLen + " bytes, not a multiple of slot size "
        + SlotLayout.SLOT_BYTES + ". Fix: capture whole ring slots.");
  }

  static PipelineException ringAboveU32(long slotCount) {
    return PipelineException.backend("megakernel ring snapshot has " + slotCount
        + " slots, above the u32 telemetry ABI. Fix: shard ring snapshots before host decode.");
  }

  /** Ours: a ring whose slot word indices overflow u32 cannot be addressed by any kernel. */
  static PipelineException ringAboveMaxSlots(long slotCount) {
    return PipelineException.backend("megakernel ring snapshot has " + slotCount + " slots, above MAX_RING_SLOTS "
        + SlotLayout.MAX_RING_SLOTS + " whose word indices fit u32. Fix: shard ring snapshots before host decode.");
  }

  /** What vyre's panicking {@code ControlSnapshot::decode} says. */
  static PipelineException controlDecodeFailed(PipelineException source) {
    return PipelineException.backend("megakernel control telemetry decode failed: " + source.display()
        + ". Fix: capture the full control buffer before telemetry decode.", source);
  }

  /** What vyre's panicking {@code RingTelemetry::decode*} says. */
  static PipelineException ringDecodeFailed(PipelineException source) {
    return PipelineException.backend("megakernel ring telemetry decode failed: " + source.display()
        + ". Fix: capture full control and whole ring-slot buffers before telemetry decode.", source);
  }

  static PipelineException doneCounterBackwards(long previous, long current) {
    return PipelineException.backend("megakernel done counter moved backwards from " + previous + " to " + current
        + ". Fix: treat counter reset/wrap as a new telemetry epoch.");
  }

  static BackendException requeueOverflow() {
    return BackendException.other(
        "megakernel requeue count overflowed u64. Fix: shard telemetry windows before launch recommendation.");
  }
}
