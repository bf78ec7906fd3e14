package dev.vyre.runtime.spi;

import dev.vyre.runtime.wire.Opcodes;

/**
 * A user opcode: a Java handler for the reference backend and/or a CUDA C handler body compiled
 * into the GPU kernel. When both exist the parity suite checks that they agree.
 *
 * @param opcode a user opcode (8..0xFFEF or 0x10000..0x7FFFFFFF)
 * @param name for logs and errors
 * @param javaHandler the reference implementation, or null
 * @param cudaBody CUDA C statements run with {@code slot}, {@code opcode}, {@code args[12]},
 *     {@code control}, {@code control_words} in scope, assigning {@code status}; or null
 */
public record UserOpcode(int opcode, String name, OpcodeHandler javaHandler, String cudaBody) {

  public UserOpcode {
    Opcodes.validateUserOpcode(opcode);
  }

  public static UserOpcode java(int opcode, String name, OpcodeHandler handler) {
    return new UserOpcode(opcode, name, handler, null);
  }

  public static UserOpcode both(int opcode, String name, OpcodeHandler handler, String cudaBody) {
    return new UserOpcode(opcode, name, handler, cudaBody);
  }
}
