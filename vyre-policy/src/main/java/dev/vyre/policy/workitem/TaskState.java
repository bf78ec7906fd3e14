package dev.vyre.policy.workitem;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;
import java.util.Optional;

/**
 * The lifecycle state of a continuation task (docs/PORTS.md, "Continuation tasks"). The ordinal is
 * the wire word and equals the ring slot status of the same meaning (Done 3 = DONE, Yielded 5 =
 * YIELD, ...), so the constants must keep this order.
 */
public enum TaskState {
  Empty, Ready, Running, Done, Paused, Yielded, Requeued, Faulted;

  private static final TaskState[] BY_WORD = values();

  /** The wire word. */
  public int word() {
    return ordinal();
  }

  /** Ready, Yielded and Requeued tasks may be claimed by a worker. */
  public boolean schedulable() {
    return this == Ready || this == Yielded || this == Requeued;
  }

  /** The host may rewrite a task in this state; Empty, Done and Faulted are final. */
  boolean transitionable() {
    return this == Ready || this == Running || this == Paused || this == Yielded || this == Requeued;
  }

  /** The state a word encodes, or empty for a word outside 0..7. */
  public static Optional<TaskState> fromWord(int word) {
    return word >= 0 && word < BY_WORD.length ? Optional.of(BY_WORD[word]) : Optional.empty();
  }

  /**
   * The state a word encodes.
   *
   * @throws BackendException for a word outside 0..7 (vyre's text)
   */
  public static TaskState ofWord(int word) {
    return fromWord(word).orElseThrow(() -> BackendException.other("megakernel task slot has unknown state word "
        + Unsigned.u32(word) + ". Fix: write a valid TaskState ABI word before publishing the slot."));
  }
}
