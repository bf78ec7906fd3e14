package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.cli.serve.ServiceClient;
import dev.vyre.runtime.Backends;
import dev.vyre.runtime.Megakernel;
import dev.vyre.scan.ScanOptions;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/** Scans through a service under test, beside the same scan alone, for the service's tests. */
final class ServedScans {

  private ServedScans() {}

  /** A reference-backend kernel sized as a service's for two lanes, with {@code workers} reference workers. */
  static Megakernel serviceKernel(int workers) {
    ScanOptions lane = ScanOptions.forBackend("reference");
    return ScanCommand.bootstrap(Megakernel.builder().backend(Backends.select("reference")), lane, lane.ringSlots() * 2,
        workers);
  }

  /** What a scan through the service ended with: its status (empty when the client scanned itself), stdout, stderr. */
  record Served(OptionalInt status, String out, String err) {}

  static Served served(Path socket, Path workingDirectory, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    OptionalInt status = ServiceClient.scan(socket, List.of(args), VersionInfo.buildId(), 0, workingDirectory, out, err);
    return new Served(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** {@code vyre scan --no-server ARGS} in this process. */
  static CliRun alone(String... args) {
    List<String> all = new ArrayList<>(List.of("scan", "--no-server"));
    all.addAll(List.of(args));
    return CliRun.of(all.toArray(String[]::new));
  }

  /** The scan through the service prints and exits as it does alone. */
  static void assertSame(Path socket, Path workingDirectory, String... args) {
    CliRun alone = alone(args);
    Served served = served(socket, workingDirectory, args);
    String shown = String.join(" ", args);
    assertEquals(OptionalInt.of(alone.status()), served.status(), shown + "\n" + served.err());
    assertEquals(alone.out(), served.out(), shown);
    assertEquals(alone.err(), served.err(), shown);
  }
}
