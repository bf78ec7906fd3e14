package dev.vyre.policy;

/** Interpreter or JIT route selected by the launch policy. */
public enum MegakernelExecutionMode {
  /** The generic opcode interpreter. */
  Interpreter,
  /** A fused payload processor for hot windows or opcodes. */
  Jit
}
