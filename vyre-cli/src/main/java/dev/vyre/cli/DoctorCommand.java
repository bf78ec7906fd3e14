package dev.vyre.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.graph.frontier.FrontierBackend;
import dev.vyre.graph.frontier.FrontierEngines;
import dev.vyre.runtime.Backends;
import dev.vyre.runtime.spi.Availability;
import dev.vyre.runtime.spi.MegakernelBackend;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code vyre doctor}: what this machine can run, and exactly why a backend cannot. */
@Command(name = "doctor", mixinStandardHelpOptions = true, description = "Report the JDK and every backend (the megakernel's, then vyre graph's), and each device of a backend with several: usable or not, and why.",
    exitCodeListHeading = "Exit status:%n", exitCodeList = {"0:A backend is usable.", "1:No backend is usable."})
final class DoctorCommand implements Callable<Integer> {

  @Option(names = "--json", description = "Print one JSON document instead: the same report, plus the launch policy's "
      + "recommendation for a scan on each usable backend and its evidence (docs/POLICY.md). Boots each usable backend's kernel.")
  boolean json;

  @Override
  public Integer call() throws JsonProcessingException {
    PrintStream out = System.out;
    if (json) {
      out.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(report()));
      return usableBackends().isEmpty() ? 1 : 0;
    }
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

  /** The report as JSON: the field names are documented in docs/POLICY.md, "vyre doctor --json". */
  static ObjectNode report() {
    ObjectNode report = Json.object();
    ObjectNode jdk = report.putObject("jdk");
    jdk.put("version", Runtime.version().toString());
    jdk.put("vendor", System.getProperty("java.vm.vendor"));
    jdk.put("cores", Runtime.getRuntime().availableProcessors());
    jdk.put("os", System.getProperty("os.name"));
    jdk.put("arch", System.getProperty("os.arch"));
    ArrayNode backends = report.putArray("backends");
    for (MegakernelBackend backend : Backends.all()) {
      Availability availability = backend.availability();
      ObjectNode entry = availability(backends.addObject(), backend.name(), availability);
      ArrayNode devices = entry.putArray("devices");
      List<Availability> each = backend.devices();
      for (int ordinal = 0; ordinal < each.size(); ordinal++) {
        availability(devices.addObject().put("ordinal", ordinal), null, each.get(ordinal));
      }
      if (availability.usable()) {
        entry.set("policy", DoctorPolicy.of(backend));
      }
    }
    ArrayNode graph = report.putArray("graph_backends");
    for (FrontierBackend backend : FrontierEngines.backends()) {
      availability(graph.addObject(), backend.name(), backend.availability());
    }
    // A probe's line is its name, padded, then what it found (io_uring's "io  ...").
    ArrayNode probes = report.putArray("probes");
    for (String line : DoctorProbes.extraLines()) {
      String[] nameAndDetail = line.strip().split("\\s+", 2);
      probes.addObject().put("name", nameAndDetail[0]).put("detail", nameAndDetail.length > 1 ? nameAndDetail[1] : "");
    }
    return report;
  }

  private static ObjectNode availability(ObjectNode json, String name, Availability availability) {
    if (name != null) {
      json.put("name", name);
    }
    json.put("usable", availability.usable());
    json.put("detail", availability.detail());
    return json;
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
