package dev.vyre.observe.promotion;

import dev.vyre.observe.telemetry.RingStatus;
import dev.vyre.policy.adapt.QueueTelemetry;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.dfa.DfaStepArgs;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;

/**
 * Where the promotion loop reads which DFA tables are in use: the tasks in flight, and the table
 * handle (arg3) of each DFA_STEP slot waiting or running now. Tests script one.
 */
@FunctionalInterface
public interface DfaTableSightings {

  /**
   * One look at a kernel.
   *
   * @param inFlight tasks published and not finished (the policy's queue length)
   * @param handles the table handle of each active DFA_STEP slot, in {@code handles[0 .. count)}
   */
  record Sample(long inFlight, int[] handles, int count) {}

  /** The kernel now. */
  Sample sample();

  /**
   * A running kernel, from its control block (the queue) and, while tasks are in flight, a copy of
   * its ring: the telemetry decoders keep only arg0..arg2 of a slot, and the table handle is arg3.
   */
  static DfaTableSightings of(Megakernel kernel) {
    int slots = kernel.slotCount();
    int[] handles = new int[slots];
    // One copy of the ring, reused: a sample every few milliseconds would otherwise be a ring-sized array each time.
    MemorySegment ring = MemorySegment.ofArray(new long[slots * SlotLayout.SLOT_BYTES / Long.BYTES]);
    return () -> {
      long inFlight = QueueTelemetry.fromControl(MemorySegment.ofArray(kernel.controlSnapshot())).inFlight();
      if (inFlight == 0) {
        return new Sample(0, handles, 0);
      }
      kernel.ringSnapshot(ring);
      int count = 0;
      for (int slot = 0; slot < slots; slot++) {
        long base = SlotLayout.slotBase(slot);
        if (Words.get(ring, base + SlotLayout.OPCODE_WORD) == Opcodes.DFA_STEP
            && RingStatus.isActiveRaw(Words.get(ring, base + SlotLayout.STATUS_WORD))) {
          handles[count++] = Words.get(ring, SlotLayout.argWord(slot, DfaStepArgs.DFA_HANDLE_ARG));
        }
      }
      return new Sample(inFlight, handles, count);
    };
  }
}
