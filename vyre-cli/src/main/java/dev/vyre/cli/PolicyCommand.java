package dev.vyre.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.cli.policy.PolicyJson;
import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.InputException;
import dev.vyre.policy.MegakernelDispatchTopology;
import dev.vyre.policy.MegakernelLaunchPolicy;
import dev.vyre.policy.MegakernelLaunchRecommendation;
import dev.vyre.policy.MegakernelLaunchRequest;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code vyre policy}: ask the launch policy what it would do with a queue. */
@Command(name = "policy", mixinStandardHelpOptions = true, description = "Ask the megakernel launch policy what it would do.",
    subcommands = PolicyCommand.Recommend.class)
final class PolicyCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code vyre policy recommend}: the standard policy's recommendation for one request. */
  @Command(name = "recommend", mixinStandardHelpOptions = true, description = {
      "Recommend geometry, workers, hit capacity, topology and route for a launch request.",
      "REQUEST is a JSON object with the 17 fields of docs/CONFORMANCE.md, 'Launch policy' (queue_len, requested_worker_groups, "
          + "max_workgroup_size_x, ..., device_memory_budget_bytes)."})
  static final class Recommend implements Callable<Integer> {

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--json", required = true, paramLabel = "REQUEST",
        description = "The request: a JSON file, or - for standard input.")
    String requestPath;

    @Option(names = "--previous", paramLabel = "TOPOLOGY",
        description = "The topology of the previous launch, to apply hysteresis (Empty, SparseFrontier, HybridFrontier, "
            + "DenseFrontier, FusedDense, MemoryConstrained).")
    String previous;

    @Option(names = "--json-output", description = "Print the recommendation as JSON instead of a table.")
    boolean jsonOutput;

    @Override
    public Integer call() throws IOException {
      MegakernelLaunchRequest request = readRequest();
      MegakernelLaunchPolicy policy = MegakernelLaunchPolicy.standard();
      MegakernelDispatchTopology previousTopology = previous == null ? null : PolicyJson.topology(previous, "--previous");
      MegakernelLaunchRecommendation recommendation = previousTopology == null
          ? policy.recommend(request)
          : policy.recommendWithPreviousTopology(request, previousTopology);
      PrintWriter out = spec.commandLine().getOut();
      if (jsonOutput) {
        out.println(Json.MAPPER.writeValueAsString(PolicyJson.recommendation(recommendation)));
      } else {
        printTable(out, request, policy.inferMissingScaleSignals(request), recommendation);
      }
      out.flush();
      return 0;
    }

    private MegakernelLaunchRequest readRequest() {
      String source = requestPath.equals("-") ? "<stdin>" : requestPath;
      JsonNode node;
      try {
        node = Json.MAPPER.readTree(readText());
      } catch (JsonProcessingException e) {
        throw InputException.of(source, "not valid JSON: " + e.getOriginalMessage(),
            "write one JSON object holding the 17 launch request fields");
      }
      PolicyJson.requireObject(node, "the launch request", source);
      for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        if (!PolicyJson.REQUEST_FIELDS.contains(name)) {
          throw InputException.of(source, "unknown request field \"" + name + "\"",
              "use only " + String.join(", ", PolicyJson.REQUEST_FIELDS));
        }
      }
      return PolicyJson.request(node, source);
    }

    private String readText() {
      try {
        if (requestPath.equals("-")) {
          return new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return Files.readString(Path.of(requestPath));
      } catch (IOException e) {
        throw InputException.of(requestPath, "cannot read the request (" + e + ")",
            "pass a readable JSON file, or - to read standard input");
      }
    }

    private void printTable(PrintWriter out, MegakernelLaunchRequest given, MegakernelLaunchRequest effective,
        MegakernelLaunchRecommendation r) {
      out.println("launch recommendation (standard policy)");
      row(out, "topology", r.topology() + (previous == null ? "" : "   (previous " + previous + ")"));
      row(out, "execution mode", r.executionMode().name());
      row(out, "queue pressure", r.pressure().name());
      row(out, "worker groups", Long.toString(r.workerGroups()));
      row(out, "workgroup size x", Long.toString(r.geometry().workgroupSizeX()));
      row(out, "slot count", Long.toString(r.geometry().slotCount()));
      row(out, "dispatch grid", "[" + r.geometry().dispatchGridX() + ", 1, 1]");
      row(out, "hit capacity", Long.toString(r.hitCapacity()));
      row(out, "peak device bytes", Unsigned.u64String(r.estimatedPeakDeviceBytes()));
      row(out, "memory budget", r.deviceMemoryBudgetBytes() == 0 ? "unbounded"
          : Unsigned.u64String(r.deviceMemoryBudgetBytes()));
      row(out, "promote opcodes", yesNo(r.promoteHotOpcodes()));
      row(out, "promote windows", yesNo(r.promoteHotWindows()));
      row(out, "age priority work", yesNo(r.agePriorityWork()));
      row(out, "frontier density", signal(given.frontierDensityBps(), effective.frontierDensityBps(),
          "inferred from queue_len / graph_node_count"));
      row(out, "memory pressure", signal(given.memoryPressureBps(), effective.memoryPressureBps(),
          "inferred from resident / budget bytes"));
    }

    private static void row(PrintWriter out, String label, String value) {
      out.printf("  %-18s %s%n", label, value);
    }

    private static String yesNo(boolean value) {
      return value ? "yes" : "no";
    }

    private static String signal(int given, int effective, String how) {
      return effective + " bps" + (given == effective ? "" : "   (" + how + ")");
    }
  }
}
