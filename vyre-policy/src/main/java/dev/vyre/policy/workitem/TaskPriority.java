package dev.vyre.policy.workitem;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;

/** The priority partition of a continuation task (docs/PORTS.md, "Continuation tasks"); the ordinal is the wire word. */
public enum TaskPriority {
  Critical, High, Normal, Low, Idle;

  /** The partition of a task that asks for none. */
  public static final TaskPriority DEFAULT = Normal;

  private static final TaskPriority[] BY_WORD = values();

  /** The wire word. */
  public int word() {
    return ordinal();
  }

  /**
   * The priority a word encodes.
   *
   * @throws BackendException for a word outside 0..4
   */
  public static TaskPriority ofWord(int word) {
    if (word < 0 || word >= BY_WORD.length) {
      throw BackendException.other("megakernel task slot has unknown priority word " + Unsigned.u32(word)
          + ". Fix: write a TaskPriority ABI word from 0 (Critical) to 4 (Idle) before publishing the slot.");
    }
    return BY_WORD[word];
  }
}
