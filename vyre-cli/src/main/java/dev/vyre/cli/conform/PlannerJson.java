package dev.vyre.cli.conform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vyre.cuda.plan.CudaMegakernelAnalysisKind;
import dev.vyre.cuda.plan.CudaMegakernelCachedPlan;
import dev.vyre.cuda.plan.CudaMegakernelDeviceKey;
import dev.vyre.cuda.plan.CudaMegakernelFrontierExecutionPlan;
import dev.vyre.cuda.plan.CudaMegakernelPlanCacheStats;
import dev.vyre.cuda.plan.CudaMegakernelPlanIdentity;
import dev.vyre.driver.error.InputException;
import dev.vyre.driver.planner.MegakernelBarrierPlan;
import dev.vyre.driver.planner.MegakernelByteLayout;
import dev.vyre.driver.planner.MegakernelExecutionPlan;
import dev.vyre.driver.planner.MegakernelExecutionSample;
import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelFrontierMemoryPlan;
import dev.vyre.driver.planner.MegakernelFrontierWave;
import dev.vyre.driver.planner.MegakernelGraphShape;
import dev.vyre.driver.planner.MegakernelMemoryBudget;
import dev.vyre.driver.planner.MegakernelMemoryPlan;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import dev.vyre.driver.planner.MegakernelWaveDependencies;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The planner shapes of docs/CONFORMANCE.md (its planner and plan-cache sections) in JSON: reading
 * waves, dependencies, samples, graphs, devices and analysis kinds, and writing barrier, frontier,
 * memory and execution plans, topology decisions and plan-cache statistics with vyre's field names.
 */
public final class PlannerJson {

  private static final int U16_MAX = 0xFFFF;

  private PlannerJson() {}

  /** {@code "dependencies":[{"before","after"}...]}; an absent field means none. */
  public static MegakernelWaveDependencies dependencies(JsonNode input) {
    JsonNode list = input.path("dependencies");
    MegakernelWaveDependencies dependencies = new MegakernelWaveDependencies(Math.max(1, list.size()));
    for (JsonNode dependency : array(list, "dependencies")) {
      dependencies.add(Json.u64(dependency, "before"), Json.u64(dependency, "after"));
    }
    return dependencies;
  }

  /** {@code "waves":[{"frontier_bytes","scratch_bytes","output_bytes"}...]}; an absent field means none. */
  public static List<MegakernelFrontierWave> waves(JsonNode input) {
    List<MegakernelFrontierWave> waves = new ArrayList<>();
    for (JsonNode wave : array(input.path("waves"), "waves")) {
      waves.add(new MegakernelFrontierWave(Json.u64(wave, "frontier_bytes"), Json.u64(wave, "scratch_bytes"),
          Json.u64(wave, "output_bytes")));
    }
    return waves;
  }

  public static MegakernelExecutionSample sample(JsonNode input) {
    JsonNode sample = Json.required(input, "sample");
    return new MegakernelExecutionSample(Json.f64(sample, "dispatch_cost_ns"), Json.f64(sample, "frontier_density"),
        Json.u64(sample, "readback_bytes"));
  }

  public static MegakernelGraphShape graph(JsonNode input) {
    JsonNode graph = Json.required(input, "graph");
    return new MegakernelGraphShape(Json.u64(graph, "node_count"), Json.u64(graph, "edge_count"));
  }

  public static MegakernelMemoryBudget memory(JsonNode input) {
    JsonNode memory = Json.required(input, "memory");
    return new MegakernelMemoryBudget(Json.u64(memory, "required_bytes"), Json.u64(memory, "budget_bytes"));
  }

  /** The six byte fields of {@code plan_megakernel_memory_budget} and friends. */
  public static MegakernelByteLayout byteLayout(JsonNode input) {
    return new MegakernelByteLayout(Json.u64(input, "bytes_per_node"), Json.u64(input, "bytes_per_edge"),
        Json.u64(input, "frontier_bytes"), Json.u64(input, "scratch_bytes"), Json.u64(input, "output_bytes"),
        Json.u64(input, "budget_bytes"));
  }

  public static MegakernelExecutionTopology topology(JsonNode input, String field) {
    String name = Json.required(input, field).asText();
    try {
      return MegakernelExecutionTopology.valueOf(name);
    } catch (IllegalArgumentException e) {
      throw InputException.of("conform", field + " \"" + name + "\" is not a topology",
          "use one of " + Arrays.toString(MegakernelExecutionTopology.values()));
    }
  }

  /** {@code graph_layout_hash}, {@code analysis_kind} and {@code device}. */
  public static CudaMegakernelPlanIdentity identity(JsonNode input) {
    return new CudaMegakernelPlanIdentity(Json.u64(input, "graph_layout_hash"), analysisKind(input), device(input));
  }

  /** A built-in family name, or {@code {"Custom": u64}}. */
  static CudaMegakernelAnalysisKind analysisKind(JsonNode input) {
    JsonNode kind = Json.required(input, "analysis_kind");
    if (kind.isObject() && kind.size() == 1 && kind.has("Custom")) {
      return new CudaMegakernelAnalysisKind.Custom(Json.u64(kind, "Custom"));
    }
    try {
      return CudaMegakernelAnalysisKind.Builtin.valueOf(kind.asText());
    } catch (IllegalArgumentException e) {
      throw InputException.of("conform", "analysis_kind " + kind + " is not an analysis kind",
          "use one of " + Arrays.toString(CudaMegakernelAnalysisKind.Builtin.values()) + " or {\"Custom\":N}");
    }
  }

  static CudaMegakernelDeviceKey device(JsonNode input) {
    JsonNode device = Json.required(input, "device");
    return new CudaMegakernelDeviceKey(u16(device, "sm_major"), u16(device, "sm_minor"), u16(device, "warp_size"),
        bool(device, "supports_grid_sync"), bool(device, "supports_tensor_cores"), Json.u32(device, "max_workgroup_size"));
  }

  public static ObjectNode barrierPlan(MegakernelBarrierPlan plan) {
    ObjectNode out = Json.object();
    ArrayNode groups = out.putArray("groups");
    for (int group = 0; group < plan.groupCount(); group++) {
      ArrayNode waves = groups.addObject().putArray("waves");
      for (int index = 0; index < plan.groupWidth(group); index++) {
        waves.add(plan.wave(group, index));
      }
    }
    out.set("global_barriers", Json.u64Node(plan.globalBarriers()));
    return out;
  }

  public static ObjectNode frontierPlan(MegakernelFrontierMemoryPlan plan) {
    ObjectNode out = Json.object();
    out.set("barriers", barrierPlan(plan.barriers()));
    putPeaks(out, plan.peakFrontierBytes(), plan.peakScratchBytes(), plan.peakOutputBytes(),
        plan.amortizedReadbackBytes(), plan.maxGroupWidth());
    return out;
  }

  public static ObjectNode cudaFrontierPlan(CudaMegakernelFrontierExecutionPlan plan) {
    ObjectNode out = Json.object();
    out.set("execution", executionPlan(plan.execution()));
    out.set("barriers", barrierPlan(plan.barriers()));
    putPeaks(out, plan.peakFrontierBytes(), plan.peakScratchBytes(), plan.peakOutputBytes(),
        plan.amortizedReadbackBytes(), plan.maxGroupWidth());
    return out;
  }

  public static ObjectNode decision(MegakernelTopologyDecision decision) {
    ObjectNode out = Json.object();
    out.put("topology", decision.topology().name());
    out.put("memory_pressure_bps", decision.memoryPressureBps());
    out.set("average_degree_bps", Json.u64Node(decision.averageDegreeBps()));
    out.put("launch_pressure_bps", decision.launchPressureBps());
    out.put("stable_explanation", decision.stableExplanation());
    return out;
  }

  public static ObjectNode memoryPlan(MegakernelMemoryPlan plan) {
    ObjectNode out = Json.object();
    out.set("graph_bytes", Json.u64Node(plan.graphBytes()));
    out.set("frontier_bytes", Json.u64Node(plan.frontierBytes()));
    out.set("scratch_bytes", Json.u64Node(plan.scratchBytes()));
    out.set("output_bytes", Json.u64Node(plan.outputBytes()));
    out.set("required_bytes", Json.u64Node(plan.requiredBytes()));
    out.set("budget_bytes", Json.u64Node(plan.budgetBytes()));
    out.put("memory_pressure_bps", plan.memoryPressureBps());
    return out;
  }

  public static ObjectNode executionPlan(MegakernelExecutionPlan plan) {
    ObjectNode out = Json.object();
    out.put("topology", plan.topology().name());
    out.set("memory", memoryPlan(plan.memory()));
    out.put("downgraded_to_sparse", plan.downgradedToSparse());
    return out;
  }

  static ObjectNode cachedPlan(CudaMegakernelCachedPlan plan) {
    ObjectNode out = Json.object();
    out.put("topology", plan.topology().name());
    out.set("decision", decision(plan.decision()));
    return out;
  }

  static ObjectNode stats(CudaMegakernelPlanCacheStats stats) {
    ObjectNode out = Json.object();
    out.set("hits", Json.u64Node(stats.hits()));
    out.set("misses", Json.u64Node(stats.misses()));
    out.set("evictions", Json.u64Node(stats.evictions()));
    out.put("entries", stats.entries());
    return out;
  }

  private static void putPeaks(ObjectNode out, long frontier, long scratch, long output, long readback, long width) {
    out.set("peak_frontier_bytes", Json.u64Node(frontier));
    out.set("peak_scratch_bytes", Json.u64Node(scratch));
    out.set("peak_output_bytes", Json.u64Node(output));
    out.set("amortized_readback_bytes", Json.u64Node(readback));
    out.put("max_group_width", width);
  }

  private static Iterable<JsonNode> array(JsonNode node, String field) {
    if (node.isMissingNode() || node.isNull()) {
      return List.of();
    }
    if (!node.isArray()) {
      throw InputException.of("conform", field + " is not an array", "pass " + field + " as a JSON array of objects");
    }
    return node;
  }

  private static int u16(JsonNode input, String field) {
    long value = Json.u64(input, field);
    if (value < 0 || value > U16_MAX) {
      throw InputException.of("conform", field + " is outside u16: " + Long.toUnsignedString(value),
          "pass a value in 0..65535");
    }
    return (int) value;
  }

  private static boolean bool(JsonNode input, String field) {
    JsonNode node = Json.required(input, field);
    if (!node.isBoolean()) {
      throw InputException.of("conform", field + " is not a boolean: " + node, "pass true or false");
    }
    return node.booleanValue();
  }
}
