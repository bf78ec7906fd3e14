package dev.vyre.cli;

import dev.vyre.cli.serve.ServiceSocket;
import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.spi.DoctorProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Extra {@code vyre doctor} lines: those other modules contribute as {@link DoctorProbe} services (io_uring,
 * say), and whether {@code vyre serve} can run here.
 */
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
    lines.add(serviceLine());
    return lines;
  }

  /** Whether {@code vyre serve} can run on this Java runtime: it checks each client's credentials. */
  static String serviceLine() {
    String detail;
    try {
      ServiceSocket.requirePeerCredentials();
      detail = "available: clients' credentials checked with SO_PEERCRED (jdk.net)";
    } catch (InputException e) {
      detail = "unavailable: " + e.getMessage();
    }
    return String.format("%-10s %s", "serve", detail);
  }
}
