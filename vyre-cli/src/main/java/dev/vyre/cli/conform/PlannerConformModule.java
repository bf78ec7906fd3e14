package dev.vyre.cli.conform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vyre.cuda.plan.CudaMegakernelBarrierPlanner;
import dev.vyre.cuda.plan.CudaMegakernelPlanCache;
import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.VyreException;
import dev.vyre.driver.planner.MegakernelBarrierPlanner;
import dev.vyre.driver.planner.MegakernelBarrierScratch;
import dev.vyre.driver.planner.MegakernelFrontierMemoryPlanner;
import dev.vyre.driver.planner.MegakernelMemoryPlanner;
import dev.vyre.driver.planner.MegakernelTopologySelector;

/** The planner functions of {@code vyre conform} (docs/CONFORMANCE.md, "Barrier planner" to "Plan cache sequences"). */
public final class PlannerConformModule implements ConformModule {

  /** The service instance; {@link java.util.ServiceLoader} calls this. */
  public PlannerConformModule() {}

  @Override
  public void register(ConformRegistry registry) {
    registry.add("plan_megakernel_barriers", input -> PlannerJson.barrierPlan(MegakernelBarrierPlanner
        .planMegakernelBarriers(Json.u64(input, "wave_count"), PlannerJson.dependencies(input))));
    registry.add("plan_megakernel_frontier_memory_with_scratch", input -> PlannerJson.frontierPlan(
        MegakernelFrontierMemoryPlanner.planMegakernelFrontierMemoryWithScratch(PlannerJson.waves(input),
            PlannerJson.dependencies(input), Json.u64(input, "resident_graph_bytes"), Json.u64(input, "budget_bytes"),
            Json.u64(input, "readback_bytes"), new MegakernelBarrierScratch())));
    registry.add("select_megakernel_topology", input -> PlannerJson.decision(MegakernelTopologySelector
        .selectMegakernelTopology(PlannerJson.sample(input), PlannerJson.graph(input), PlannerJson.memory(input),
            Json.f64(input, "launch_overhead_ns"), Json.f64(input, "fusion_pressure"))));
    registry.add("select_megakernel_topology_stable", input -> PlannerJson.decision(MegakernelTopologySelector
        .selectMegakernelTopologyStable(PlannerJson.sample(input), PlannerJson.graph(input), PlannerJson.memory(input),
            Json.f64(input, "launch_overhead_ns"), Json.f64(input, "fusion_pressure"),
            PlannerJson.topology(input, "previous_topology"))));
    registry.add("plan_megakernel_memory_budget", input -> PlannerJson.memoryPlan(MegakernelMemoryPlanner
        .planMegakernelMemoryBudget(PlannerJson.topology(input, "topology"), PlannerJson.graph(input),
            PlannerJson.byteLayout(input))));
    registry.add("plan_megakernel_execution", input -> PlannerJson.executionPlan(MegakernelMemoryPlanner
        .planMegakernelExecution(PlannerJson.sample(input), PlannerJson.graph(input), PlannerJson.byteLayout(input),
            Json.f64(input, "launch_overhead_ns"), Json.f64(input, "fusion_pressure"))));
    registry.add("plan_cuda_frontier_megakernel_execution",
        input -> cudaFrontierExecution(new CudaMegakernelPlanCache(), input));
    registry.add("cuda_plan_cache_sequence", PlannerConformModule::cachedSequence);
  }

  /** {@code plan_cuda_frontier_megakernel_execution} against {@code cache}. */
  private static ObjectNode cudaFrontierExecution(CudaMegakernelPlanCache cache, JsonNode input) {
    return PlannerJson.cudaFrontierPlan(CudaMegakernelBarrierPlanner.planCudaFrontierMegakernelExecution(cache,
        PlannerJson.identity(input), PlannerJson.sample(input), PlannerJson.graph(input),
        Json.u64(input, "bytes_per_node"), Json.u64(input, "bytes_per_edge"), PlannerJson.waves(input),
        PlannerJson.dependencies(input), Json.u64(input, "budget_bytes"), Json.f64(input, "launch_overhead_ns"),
        Json.f64(input, "fusion_pressure")));
  }

  /**
   * docs/CONFORMANCE.md, "Plan cache sequences": one cache shared by the calls of one input; each call reports its output
   * and the stats after it.
   */
  private static JsonNode cachedSequence(JsonNode input) {
    JsonNode maxEntries = input.get("max_entries");
    CudaMegakernelPlanCache cache = maxEntries == null || maxEntries.isNull() ? new CudaMegakernelPlanCache()
        : new CudaMegakernelPlanCache(Json.u64(input, "max_entries"));
    JsonNode calls = Json.required(input, "calls");
    if (!calls.isArray()) {
      throw InputException.of("conform", "calls is not an array", "pass calls as a JSON array of call objects");
    }
    ObjectNode out = Json.object();
    ArrayNode results = out.putArray("results");
    for (JsonNode call : calls) {
      ObjectNode result = results.addObject();
      try {
        result.set("output", sequenceCall(cache, call));
      } catch (VyreException e) {
        result.set("output", Json.error(e));
      }
      result.set("stats", PlannerJson.stats(cache.stats()));
    }
    return out;
  }

  private static JsonNode sequenceCall(CudaMegakernelPlanCache cache, JsonNode call) {
    String op = call.path("op").asText("plan_cuda_frontier_megakernel_execution");
    return switch (op) {
      case "plan_cuda_frontier_megakernel_execution" -> cudaFrontierExecution(cache, call);
      case "get_or_select_topology" -> PlannerJson.cachedPlan(cache.getOrSelectTopology(PlannerJson.identity(call),
          PlannerJson.sample(call), PlannerJson.graph(call), PlannerJson.memory(call), Json.f64(call, "launch_overhead_ns"),
          Json.f64(call, "fusion_pressure")));
      case "get_or_plan_execution" -> PlannerJson.executionPlan(cache.getOrPlanExecution(PlannerJson.identity(call),
          PlannerJson.sample(call), PlannerJson.graph(call), PlannerJson.byteLayout(call),
          Json.f64(call, "launch_overhead_ns"), Json.f64(call, "fusion_pressure")));
      default -> throw InputException.of("conform", "unknown cache op \"" + op + "\"",
          "use plan_cuda_frontier_megakernel_execution, get_or_select_topology or get_or_plan_execution");
    };
  }
}
