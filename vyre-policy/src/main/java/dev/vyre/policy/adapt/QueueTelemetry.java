package dev.vyre.policy.adapt;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.wire.ControlLayout;
import java.lang.foreign.MemorySegment;

/** Where the worker-group loop reads its samples; tests script one. */
@FunctionalInterface
public interface QueueTelemetry {

  /** The queue now. */
  QueueSample sample();

  /**
   * A running kernel's queue, from an exact copy of its control block: doorbells less claim cursors
   * are the waiting tasks, claims (up to the doorbells) less DONE and FAULT counts the running ones
   * (all u32 counters).
   */
  static QueueTelemetry of(Megakernel kernel) {
    return () -> fromControl(MemorySegment.ofArray(kernel.controlSnapshot()));
  }

  /** The queue a control block describes. */
  static QueueSample fromControl(MemorySegment control) {
    long waiting = 0;
    int claimed = 0;
    for (int p = 0; p < ControlLayout.PRIORITY_LEVELS; p++) {
      int published = (int) ControlLayout.readWord(control, ControlLayout.publishSeqWord(p));
      // The cursor's low word: every count here is modulo 2^32.
      int claims = (int) ControlLayout.readWord(control, ControlLayout.claimSeqWord(p));
      // CUDA's workers may take tickets past the doorbell and wait for them: those are no tasks yet.
      int ahead = claims - published;
      waiting += Math.max(-ahead, 0);
      claimed += ahead > 0 ? published : claims;
    }
    int finished = (int) (ControlLayout.readWord(control, ControlLayout.DONE_COUNT)
        + ControlLayout.readWord(control, ControlLayout.FAULT_COUNT));
    // The copy is not atomic: a count read after a claim it follows may run ahead of it.
    long running = Math.max(claimed - finished, 0);
    return new QueueSample(waiting, running, ControlLayout.readWord(control, ControlLayout.CONTINUATION_COUNT));
  }
}
