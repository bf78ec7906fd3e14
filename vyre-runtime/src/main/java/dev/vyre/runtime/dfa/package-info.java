/**
 * The DFA_STEP built-in opcode, which vyre reserves and this project implements (docs/DESIGN.md,
 * "DFA_STEP"): the layout of its table resource ({@link dev.vyre.runtime.dfa.DfaTableLayout}) and hit
 * buffer ({@link dev.vyre.runtime.dfa.HitBufferLayout}), the meaning of its slot arguments
 * ({@link dev.vyre.runtime.dfa.DfaStepArgs}) and its reference semantics
 * ({@link dev.vyre.runtime.dfa.DfaStep}), which the reference backend runs and the CUDA kernel
 * mirrors.
 */
package dev.vyre.runtime.dfa;
