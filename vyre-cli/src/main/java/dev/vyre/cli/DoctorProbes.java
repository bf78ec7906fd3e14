package dev.vyre.cli;

import dev.vyre.runtime.spi.DoctorProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Extra {@code vyre doctor} lines (io_uring, say) contributed by other modules as {@link DoctorProbe} services. */
final class DoctorProbes {

  private DoctorProbes() {}

  static List<String> extraLines() {
    List<String> lines = new ArrayList<>();
    for (DoctorProbe probe : ServiceLoader.load(DoctorProbe.class)) {
      String line = probe.line();
      if (line != null) {
        lines.add(line);
      }
    }
    return lines;
  }
}
