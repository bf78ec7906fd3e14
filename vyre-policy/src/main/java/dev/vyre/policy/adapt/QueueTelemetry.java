package dev.vyre.policy.adapt;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.wire.ControlLayout;
import java.lang.foreign.MemorySegment;

/** Where the worker-group loop reads its samples; tests script one. */
@FunctionalInterface
public interface QueueTelemetry {

  /** The queue now. */
  QueueSample sample();

  /** A running kernel's queue, from an exact copy of its control block ({@link #fromControl}). */
  static QueueTelemetry of(Megakernel kernel) {
    return () -> fromControl(MemorySegment.ofArray(kernel.controlSnapshot()));
  }

  /**
   * The queue a control block describes: the doorbells (what the host published) less the DONE and
   * FAULT counts, all u32 counters. The claim cursors are no help: CUDA keeps them on the device,
   * its workers move them past the doorbells and wait, and the control block's copy is a mirror the
   * scout refreshes when it can.
   */
  static QueueSample fromControl(MemorySegment control) {
    int published = 0;
    for (int p = 0; p < ControlLayout.PRIORITY_LEVELS; p++) {
      published += (int) ControlLayout.readWord(control, ControlLayout.publishSeqWord(p));
    }
    int finished = (int) (ControlLayout.readWord(control, ControlLayout.DONE_COUNT)
        + ControlLayout.readWord(control, ControlLayout.FAULT_COUNT));
    // Modulo 2^32; a copy whose counts ran ahead of its doorbells reads as empty.
    return new QueueSample(Math.max(published - finished, 0), ControlLayout.readWord(control, ControlLayout.CONTINUATION_COUNT));
  }
}
