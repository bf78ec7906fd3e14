package dev.vyre.observe.replay;

import dev.vyre.driver.error.RetryClass;

/** How a recorded failure may be recovered from (vyre's {@code ReplayFailureClass}); the record stores {@link #code()}. */
public enum ReplayFailureClass {
  /** No failure evidence. */
  None(0),
  /** The device, its context or compiled state was lost. */
  DeviceLoss(1),
  /** Queue or resource pressure; retrying may succeed without recompiling. */
  TransientQueue(2),
  /** The program, its lowering or its arguments are wrong; retrying as is cannot help. */
  ProgramBug(3),
  /** No known recovery class. */
  Unclassified(4);

  private final int code;

  ReplayFailureClass(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The class stored as {@code code}; an unknown code reads as {@link #Unclassified}, as in vyre. */
  public static ReplayFailureClass decode(int code) {
    return switch (code) {
      case 0 -> None;
      case 1 -> DeviceLoss;
      case 2 -> TransientQueue;
      case 3 -> ProgramBug;
      default -> Unclassified;
    };
  }

  /**
   * vyre's mapping from the recovery class: a new device → DeviceLoss, the same device →
   * TransientQueue, never → ProgramBug; no class known (null) → Unclassified. vyre's
   * RecompileSource also maps to ProgramBug; our {@link RetryClass} has no such class.
   */
  public static ReplayFailureClass of(RetryClass retryClass) {
    if (retryClass == null) {
      return Unclassified;
    }
    return switch (retryClass) {
      case NewDevice -> DeviceLoss;
      case SameDevice -> TransientQueue;
      case Never -> ProgramBug;
    };
  }
}
