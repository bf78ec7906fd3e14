package dev.vyre.cuda;

import dev.vyre.cuda.wire.WireDefines;
import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.spi.UserOpcode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The CUDA C sources shipped as resources, and the megakernel assembled from them: the wire
 * constants generated from the Java descriptors ({@link WireDefines}), then the kernel's parts in
 * a fixed order, with the user opcodes' handler bodies spliced into the dispatch switch (the JIT
 * path).
 */
public final class KernelSource {

  /** The name the assembled megakernel is compiled under (NVRTC's program name, the cache's). */
  public static final String MEGAKERNEL = "megakernel.cu";
  public static final String BASELINES = "baselines.cu";
  /** The name the assembled frontier kernel is compiled under. */
  public static final String FRONTIER = "frontier.cu";
  /** The frontier kernel's parts, in the order they are joined: each uses only what comes before it. */
  public static final List<String> FRONTIER_PARTS = List.of("frontier/decide.cu", "frontier/frontier.cu",
      "frontier/levels.cu", "frontier/barrier.cu", "frontier/entry.cu", "frontier/afforest.cu");
  /** The megakernel's parts, in the order they are joined: each uses only what comes before it. */
  public static final List<String> PARTS = List.of("megakernel/memory.cu", "megakernel/dfa.cu", "megakernel/interpreter.cu", "megakernel/claims.cu",
      "megakernel/express.cu", "megakernel/scout.cu", "megakernel/entry.cu", "megakernel/io.cu", "megakernel/user_opcodes.cu");
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
    return assemble(KernelSource::resource, cases(userOpcodes));
  }

  /** The frontier kernel (docs/FRONTIER.md): its parts joined, each after a {@code #line} naming it. */
  public static String frontier() {
    StringBuilder kernel = new StringBuilder();
    for (String part : FRONTIER_PARTS) {
      kernel.append("#line 1 \"").append(part).append("\"\n").append(resource(part)).append('\n');
    }
    return kernel.toString();
  }

  private static String cases(List<UserOpcode> userOpcodes) {
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
    return cases.toString();
  }

  /**
   * The constants block, then each part read by {@code parts}, the user opcode {@code cases} at the
   * splice marker. A {@code #line} before each part (and after the cases) makes NVRTC's errors and
   * -lineinfo name the part's own file and line.
   */
  static String assemble(UnaryOperator<String> parts, String cases) {
    StringBuilder kernel = new StringBuilder(WireDefines.block());
    for (String part : PARTS) {
      String text = parts.apply(part);
      kernel.append("\n#line 1 \"").append(part).append("\"\n");
      int marker = text.indexOf(USER_OPCODES_MARKER);
      if (marker < 0) {
        kernel.append(text);
        continue;
      }
      long markerLine = 1 + text.substring(0, marker).chars().filter(c -> c == '\n').count();
      // The line break after the marker ends the #line directive.
      kernel.append(text, 0, marker).append(cases).append("#line ").append(markerLine + 1).append(" \"").append(part).append('"')
          .append(text, marker + USER_OPCODES_MARKER.length(), text.length());
    }
    return kernel.toString();
  }

  /**
   * Writes the assembled megakernel, for nvcc and the kernel lab: {@code [--parts DIR]
   * [--sample-user-opcode] OUT}. {@code --parts} reads the parts from DIR instead of the jar (another
   * revision's sources, with this build's constants); the sample opcode is the one KernelSourceTest
   * splices.
   */
  public static void main(String[] args) throws IOException {
    List<String> rest = new ArrayList<>(List.of(args));
    UnaryOperator<String> parts = KernelSource::resource;
    List<UserOpcode> opcodes = List.of();
    if (rest.size() > 1 && rest.getFirst().equals("--parts")) {
      Path dir = Path.of(rest.get(1));
      parts = name -> read(dir.resolve(name));
      rest = rest.subList(2, rest.size());
    }
    if (!rest.isEmpty() && rest.getFirst().equals("--sample-user-opcode")) {
      opcodes = List.of(UserOpcode.both(0x123, "bump", ctx -> 3, "vyre_add(a, 170u, 1u);"));
      rest = rest.subList(1, rest.size());
    }
    if (rest.size() != 1) {
      System.err.println("usage: KernelSource [--parts DIR] [--sample-user-opcode] OUT");
      System.exit(2);
    }
    Files.writeString(Path.of(rest.getFirst()), assemble(parts, cases(opcodes)));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
