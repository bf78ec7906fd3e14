package dev.vyre.cli;

import dev.vyre.graph.frontier.FrontierBackend;
import dev.vyre.graph.frontier.FrontierEngines;
import dev.vyre.runtime.Backends;
import dev.vyre.runtime.spi.Availability;
import dev.vyre.runtime.spi.MegakernelBackend;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code vyre doctor}: what this machine can run, and exactly why a backend cannot. */
@Command(name = "doctor", mixinStandardHelpOptions = true, description = "Report the JDK and every backend (the megakernel's, then vyre graph's), and each device of a backend with several: usable or not, and why.",
    exitCodeListHeading = "Exit status:%n", exitCodeList = {"0:A backend is usable.", "1:No backend is usable."})
final class DoctorCommand implements Callable<Integer> {

  @Override
  public Integer call() {
    PrintStream out = System.out;
    out.printf("jdk        %s, %d core(s), %s %s%n", jdk(), Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.name"), System.getProperty("os.arch"));
    boolean anyUsable = false;
    for (MegakernelBackend backend : Backends.all()) {
      Availability availability = backend.availability();
      anyUsable |= availability.usable();
      out.printf("%-10s %s: %s%n", backend.name(), availability.usable() ? "usable" : "unusable", availability.detail());
      // Each device of a backend with several (a host of GPUs): --device and --devices pick among them.
      List<Availability> devices = backend.devices();
      for (int ordinal = 0; devices.size() > 1 && ordinal < devices.size(); ordinal++) {
        Availability device = devices.get(ordinal);
        out.printf("  device %d %s: %s%n", ordinal, device.usable() ? "usable" : "unusable", device.detail());
      }
    }
    // The frontier engine's backends (vyre graph) have their own needs: cooperative launch on CUDA.
    for (FrontierBackend backend : FrontierEngines.backends()) {
      Availability availability = backend.availability();
      out.printf("%-16s %s: %s%n", "graph " + backend.name(), availability.usable() ? "usable" : "unusable",
          availability.detail());
    }
    for (String line : DoctorProbes.extraLines()) {
      out.println(line);
    }
    return anyUsable ? 0 : 1;
  }

  /** The running JDK: its version and vendor. */
  static String jdk() {
    return Runtime.version() + " (" + System.getProperty("java.vm.vendor") + ")";
  }

  /** The names of the backends usable here, highest precedence first. */
  static List<String> usableBackends() {
    return Backends.all().stream().filter(backend -> backend.availability().usable()).map(MegakernelBackend::name).toList();
  }
}
