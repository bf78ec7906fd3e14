package dev.vyre.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Supplier;

/**
 * Extra {@code vyre doctor} lines (io_uring, NVRTC, pipeline cache) contributed by other modules
 * as {@code Supplier<String>} services, so doctor needs no compile-time knowledge of them.
 */
final class DoctorProbes {

  private DoctorProbes() {}

  @SuppressWarnings({"unchecked", "rawtypes"})
  static List<String> extraLines() {
    List<String> lines = new ArrayList<>();
    for (Supplier supplier : ServiceLoader.load(Supplier.class)) {
      Object line = supplier.get();
      if (line != null) {
        lines.add(line.toString());
      }
    }
    return lines;
  }
}
