package dev.vyre.policy;

/** Which hot-path promotion a launch takes, as promotion evidence reports it. */
public enum MegakernelPromotionRoute {
  Interpreter("interpreter"),
  QueueJit("queue_jit"),
  OpcodeJit("opcode_jit"),
  WindowJit("window_jit"),
  OpcodeAndWindowJit("opcode_and_window_jit");

  private final String label;

  MegakernelPromotionRoute(String label) {
    this.label = label;
  }

  /** vyre's stable label, e.g. {@code opcode_and_window_jit}. */
  public String label() {
    return label;
  }

  /** The route for a mode and the two promotion flags; a JIT launch without hot work is queue-driven. */
  public static MegakernelPromotionRoute of(
      MegakernelExecutionMode mode, boolean promoteHotOpcodes, boolean promoteHotWindows) {
    if (mode == MegakernelExecutionMode.Interpreter) {
      return Interpreter;
    }
    if (promoteHotOpcodes) {
      return promoteHotWindows ? OpcodeAndWindowJit : OpcodeJit;
    }
    return promoteHotWindows ? WindowJit : QueueJit;
  }
}
