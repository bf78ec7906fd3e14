package dev.vyre.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.cli.conform.PlannerJson;
import dev.vyre.cuda.plan.CudaMegakernelBarrierPlanner;
import dev.vyre.cuda.plan.CudaMegakernelFrontierExecutionPlan;
import dev.vyre.cuda.plan.CudaMegakernelPlanCache;
import dev.vyre.driver.error.InputException;
import dev.vyre.driver.planner.MegakernelBarrierPlan;
import dev.vyre.driver.planner.MegakernelBarrierPlanner;
import dev.vyre.driver.planner.MegakernelBarrierScratch;
import dev.vyre.driver.planner.MegakernelExecutionPlan;
import dev.vyre.driver.planner.MegakernelFrontierMemoryPlan;
import dev.vyre.driver.planner.MegakernelFrontierMemoryPlanner;
import dev.vyre.driver.planner.MegakernelMemoryPlan;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code vyre plan barriers|frontier|cuda-frontier --json FILE}: runs a planner on the input
 * fields of the matching {@code vyre conform} function and prints the plan for a person: the
 * barrier groups, the peak bytes, and the topology with the reason it was chosen.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
    description = "Plan megakernel barriers, frontier memory or CUDA frontier execution from JSON.")
final class PlanCommand implements Runnable {

  /** Groups and waves shown before the listing is cut short. */
  private static final int SHOWN_GROUPS = 64;
  private static final int SHOWN_WAVES = 32;

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(out());
  }

  @Command(name = "barriers", mixinStandardHelpOptions = true,
      description = "Minimum global-barrier groups of a wave DAG (fields: wave_count, dependencies[{before,after}]).")
  int barriers(@Option(names = "--json", required = true, paramLabel = "FILE", description = "Input JSON, - for stdin.")
      String file) {
    JsonNode input = read(file);
    MegakernelBarrierPlan plan = fromFields(file, () -> MegakernelBarrierPlanner.planMegakernelBarriers(
        Json.u64(input, "wave_count"), PlannerJson.dependencies(input)));
    printGroups(plan, "barrier-free");
    return 0;
  }

  @Command(name = "frontier", mixinStandardHelpOptions = true,
      description = "Barrier groups split to a byte budget, with peak bytes per group (fields: "
          + "waves[{frontier_bytes,scratch_bytes,output_bytes}], dependencies, resident_graph_bytes, budget_bytes, "
          + "readback_bytes).")
  int frontier(@Option(names = "--json", required = true, paramLabel = "FILE", description = "Input JSON, - for stdin.")
      String file) {
    JsonNode input = read(file);
    long readback = fromFields(file, () -> Json.u64(input, "readback_bytes"));
    MegakernelFrontierMemoryPlan plan = fromFields(file, () -> MegakernelFrontierMemoryPlanner
        .planMegakernelFrontierMemoryWithScratch(PlannerJson.waves(input), PlannerJson.dependencies(input),
            Json.u64(input, "resident_graph_bytes"), Json.u64(input, "budget_bytes"), readback,
            new MegakernelBarrierScratch()));
    printGroups(plan.barriers(), "budget-fitted");
    printPeaks(plan.peakFrontierBytes(), plan.peakScratchBytes(), plan.peakOutputBytes(), plan.maxGroupWidth());
    out().printf("amortized readback: %s bytes (the larger of telemetry %s and peak output)%n",
        u64(plan.amortizedReadbackBytes()), u64(readback));
    return 0;
  }

  @Command(name = "cuda-frontier", mixinStandardHelpOptions = true,
      description = "Frontier plan plus the CUDA topology, memory plan and the reason for the topology (fields as "
          + "plan_cuda_frontier_megakernel_execution in docs/CONFORMANCE.md, 'CUDA frontier execution').")
  int cudaFrontier(@Option(names = "--json", required = true, paramLabel = "FILE", description = "Input JSON, - for stdin.")
      String file) {
    JsonNode input = read(file);
    CudaMegakernelFrontierExecutionPlan plan = fromFields(file, () -> CudaMegakernelBarrierPlanner
        .planCudaFrontierMegakernelExecution(new CudaMegakernelPlanCache(), PlannerJson.identity(input),
            PlannerJson.sample(input), PlannerJson.graph(input), Json.u64(input, "bytes_per_node"),
            Json.u64(input, "bytes_per_edge"), PlannerJson.waves(input), PlannerJson.dependencies(input),
            Json.u64(input, "budget_bytes"), Json.f64(input, "launch_overhead_ns"), Json.f64(input, "fusion_pressure")));
    printGroups(plan.barriers(), "budget-fitted");
    printPeaks(plan.peakFrontierBytes(), plan.peakScratchBytes(), plan.peakOutputBytes(), plan.maxGroupWidth());
    printExecution(plan.execution(), plan.amortizedReadbackBytes());
    return 0;
  }

  private void printGroups(MegakernelBarrierPlan plan, String kind) {
    PrintWriter out = out();
    out.printf("%d waves in %s, %s%n", plan.waveCount(), count(plan.groupCount(), kind + " group"),
        count(plan.globalBarriers(), "global barrier"));
    int shown = Math.min(plan.groupCount(), SHOWN_GROUPS);
    for (int group = 0; group < shown; group++) {
      int width = plan.groupWidth(group);
      StringBuilder line = new StringBuilder("  group ").append(group).append(" (").append(count(width, "wave"))
          .append("):");
      for (int index = 0; index < Math.min(width, SHOWN_WAVES); index++) {
        line.append(' ').append(plan.wave(group, index));
      }
      if (width > SHOWN_WAVES) {
        line.append(" ... ").append(width - SHOWN_WAVES).append(" more");
      }
      out.println(line);
    }
    if (plan.groupCount() > shown) {
      out.printf("  ... %d more groups (vyre conform prints the whole plan as JSON)%n", plan.groupCount() - shown);
    }
  }

  private void printPeaks(long frontier, long scratch, long output, long width) {
    out().printf("peak bytes of one group: frontier %s, scratch %s, output %s; widest group %s%n", u64(frontier),
        u64(scratch), u64(output), count(width, "wave"));
  }

  private void printExecution(MegakernelExecutionPlan execution, long readback) {
    PrintWriter out = out();
    MegakernelTopologyDecision decision = execution.decision();
    if (execution.downgradedToSparse()) {
      out.printf("topology: %s (downgraded: %s did not fit the budget)%n", execution.topology(), decision.topology());
    } else {
      out.printf("topology: %s%n", execution.topology());
    }
    out.printf("why: %s (memory pressure %d bps, average degree %s bps, launch pressure %d bps, readback %s bytes)%n",
        decision.reasonCode(), decision.memoryPressureBps(), u64(decision.averageDegreeBps()),
        decision.launchPressureBps(), u64(readback));
    out.printf("     %s%n", decision.stableExplanation());
    MegakernelMemoryPlan memory = execution.memory();
    out.printf("memory: graph %s + frontier %s + scratch %s + output %s = %s of %s bytes (%d bps)%n",
        u64(memory.graphBytes()), u64(memory.frontierBytes()), u64(memory.scratchBytes()), u64(memory.outputBytes()),
        u64(memory.requiredBytes()), u64(memory.budgetBytes()), memory.memoryPressureBps());
  }

  /**
   * Runs {@code plan} on the input's fields. The field readers are {@code vyre conform}'s, whose
   * errors name conform as their source; here they name the input.
   */
  private static <T> T fromFields(String file, Supplier<T> plan) {
    try {
      return plan.get();
    } catch (InputException e) {
      String conform = "conform: ";
      int fix = e.getMessage().lastIndexOf(". Fix: ");
      if (!e.getMessage().startsWith(conform) || fix < 0) {
        throw e;
      }
      throw InputException.of(source(file), e.getMessage().substring(conform.length(), fix),
          e.getMessage().substring(fix + ". Fix: ".length()));
    }
  }

  private static String source(String file) {
    return file.equals("-") ? "stdin" : file;
  }

  private JsonNode read(String file) {
    String source = source(file);
    byte[] bytes;
    try {
      bytes = file.equals("-") ? System.in.readAllBytes() : Files.readAllBytes(Path.of(file));
    } catch (NoSuchFileException e) {
      throw InputException.of(source, "does not exist", "pass an existing JSON file, or - for stdin");
    } catch (IOException e) {
      throw InputException.of(source, "cannot be read: " + e, "pass a readable JSON file, or - for stdin");
    }
    JsonNode input;
    try {
      input = Json.MAPPER.readTree(new String(bytes, StandardCharsets.UTF_8));
    } catch (JsonProcessingException e) {
      throw InputException.of(source, "is not valid JSON: " + e.getOriginalMessage(),
          "write one JSON object with the fields listed in vyre plan --help");
    }
    if (input == null || !input.isObject()) {
      throw InputException.of(source, "is not a JSON object", "write one JSON object with the fields listed in --help");
    }
    return input;
  }

  private PrintWriter out() {
    return spec.commandLine().getOut();
  }

  private static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  private static String u64(long value) {
    return Long.toUnsignedString(value);
  }
}
