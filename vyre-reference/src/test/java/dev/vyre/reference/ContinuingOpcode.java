package dev.vyre.reference;

import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;

/**
 * A user opcode for the tests that continue tasks: YIELD or REQUEUE a few times, then add and finish DONE. It
 * counts its runs in its arguments, so that a finished slot shows whether its last run's arguments were kept.
 */
final class ContinuingOpcode {

  /** Argument word where each run adds one: a task published with 0 there finishes with its number of runs. */
  static final int RUNS_ARG = 3;

  private ContinuingOpcode() {}

  /**
   * Finishes {@code status} arg0 times, counting arg0 down, then adds arg1 to observable arg2 and finishes DONE; every
   * run adds one to arg3.
   */
  static UserOpcode of(int opcode, String name, int status, String cudaStatus) {
    return UserOpcode.both(opcode, name, slot -> {
      slot.setArg(RUNS_ARG, slot.arg(RUNS_ARG) + 1);
      int left = slot.arg(0);
      if (left > 0) {
        slot.setArg(0, left - 1);
        return status;
      }
      Words.getAndAdd(slot.control(), ControlLayout.observableWord(slot.arg(2)), slot.arg(1));
      return SlotLayout.STATUS_DONE;
    }, "args[3] += 1u; if (args[0] > 0u) { args[0] -= 1u; status = " + cudaStatus + "; }"
        + " else { vyre_add(a, VYRE_CTL_OBSERVABLE_BASE + args[2], args[1]); }");
  }

  static UserOpcode yielding(int opcode) {
    return of(opcode, "yield-then-add", SlotLayout.STATUS_YIELD, "VYRE_STATUS_YIELD");
  }

  static UserOpcode requeueing(int opcode) {
    return of(opcode, "requeue-then-add", SlotLayout.STATUS_REQUEUE, "VYRE_STATUS_REQUEUE");
  }
}
