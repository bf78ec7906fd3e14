package dev.vyre.cuda;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.spi.UserOpcode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The CUDA C sources shipped as resources, with the user opcodes' handler bodies spliced into the
 * megakernel's dispatch switch (the JIT path).
 */
public final class KernelSource {

  public static final String MEGAKERNEL = "megakernel.cu";
  public static final String BASELINES = "baselines.cu";
  static final String USER_OPCODES_MARKER = "/*VYRE_USER_OPCODES*/";

  private KernelSource() {}

  /** The raw text of a shipped source. */
  public static String resource(String name) {
    try (InputStream in = KernelSource.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("kernel source " + name + " is missing from the vyre-cuda jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The megakernel with a {@code case} for every user opcode that has a CUDA body. */
  public static String megakernel(List<UserOpcode> userOpcodes) {
    StringBuilder cases = new StringBuilder();
    for (UserOpcode opcode : userOpcodes) {
      if (opcode.cudaBody() == null) {
        continue;
      }
      if (opcode.cudaBody().contains("*/") || opcode.cudaBody().contains(USER_OPCODES_MARKER)) {
        throw InputException.of("user opcode " + opcode.name(), "its CUDA body contains a comment terminator or the splice marker",
            "remove '*/' from the body");
      }
      cases.append("    case 0x").append(Integer.toHexString(opcode.opcode())).append("u: { // ").append(opcode.name().replaceAll("[\\r\\n]", " "))
          .append('\n').append(opcode.cudaBody()).append("\n      break;\n    }\n");
    }
    return resource(MEGAKERNEL).replace(USER_OPCODES_MARKER, cases);
  }
}
