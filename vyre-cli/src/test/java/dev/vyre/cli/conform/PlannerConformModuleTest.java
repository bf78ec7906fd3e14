package dev.vyre.cli.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The planner sections of docs/CONFORMANCE.md through {@link ConformRunner}: JSON lines in, vyre's field names and values out. */
class PlannerConformModuleTest {

  private static final String DEVICE = "\"device\":{\"sm_major\":12,\"sm_minor\":0,\"warp_size\":32,"
      + "\"supports_grid_sync\":true,\"supports_tensor_cores\":true,\"max_workgroup_size\":1024}";
  private static final String G = "\"graph\":{\"node_count\":1000,\"edge_count\":4000}";
  private static final String DIAMOND = "\"dependencies\":[{\"before\":0,\"after\":1},{\"before\":0,\"after\":2},"
      + "{\"before\":1,\"after\":3},{\"before\":2,\"after\":3}]";
  private static final String DOUBLING = "\"waves\":[" + wave(1_024, 512, 256) + "," + wave(2_048, 1_024, 512) + ","
      + wave(4_096, 2_048, 1_024) + "," + wave(8_192, 4_096, 2_048) + "]";

  private final ConformRunner runner = new ConformRunner(ConformRegistry.loadAll());

  @Test
  void barrierGroupsKeepReleaseOrder() {
    assertAnswer("{\"groups\":[{\"waves\":[0]},{\"waves\":[3,1,4,2]}],\"global_barriers\":1}",
        "{\"fn\":\"plan_megakernel_barriers\",\"wave_count\":5,\"dependencies\":[{\"before\":0,\"after\":3},"
            + "{\"before\":0,\"after\":1},{\"before\":0,\"after\":4},{\"before\":0,\"after\":2}]}");
    assertAnswer("{\"groups\":[],\"global_barriers\":0}",
        "{\"fn\":\"plan_megakernel_barriers\",\"wave_count\":0,\"dependencies\":[]}");
  }

  @Test
  void barrierErrorsCarryTheirStructuredFields() {
    assertAnswer(error("MegakernelBarrierPlanError", "ByteCountOverflow", "\"field\":\"barrier scratch wave offsets\"",
        "megakernel barrier planner overflowed while computing barrier scratch wave offsets. Fix: shard the dependency "
            + "graph before barrier planning."),
        "{\"fn\":\"plan_megakernel_barriers\",\"wave_count\":18446744073709551615,\"dependencies\":[]}");
    assertAnswer(error("MegakernelBarrierPlanError", "InvalidWave",
        "\"wave_count\":0,\"before\":18446744073709551615,\"after\":3",
        "megakernel dependency references invalid wave before=18446744073709551615 after=3 for wave_count=0. Fix: emit "
            + "dependencies only over normalized wave indices."),
        "{\"fn\":\"plan_megakernel_barriers\",\"wave_count\":0,"
            + "\"dependencies\":[{\"before\":18446744073709551615,\"after\":3}]}");
  }

  @Test
  void frontierMemoryPlan() { // B1, B4 and a nested barrier error
    assertAnswer("{\"barriers\":{\"groups\":[{\"waves\":[0]},{\"waves\":[1,2]},{\"waves\":[3]}],\"global_barriers\":2},"
        + "\"peak_frontier_bytes\":8192,\"peak_scratch_bytes\":4096,\"peak_output_bytes\":2048,"
        + "\"amortized_readback_bytes\":1048576,\"max_group_width\":2}",
        "{\"fn\":\"plan_megakernel_frontier_memory_with_scratch\"," + DOUBLING + "," + DIAMOND
            + ",\"resident_graph_bytes\":16000,\"budget_bytes\":131072,\"readback_bytes\":1048576}");
    assertAnswer(error("MegakernelFrontierMemoryPlanError", "GroupOverBudget",
        "\"required_bytes\":1600,\"budget_bytes\":1000,\"field\":\"resident graph bytes\"",
        "megakernel frontier memory planner requires 1600 bytes for resident graph bytes but budget allows 1000. Fix: "
            + "shard the graph/frontier waves or raise the explicit megakernel budget."),
        "{\"fn\":\"plan_megakernel_frontier_memory_with_scratch\",\"waves\":[" + wave(1, 1, 1)
            + "],\"dependencies\":[],\"resident_graph_bytes\":1600,\"budget_bytes\":1000,\"readback_bytes\":0}");
    String cycle = "megakernel wave dependency graph contains a cycle with 2 unscheduled waves. Fix: break the cyclic "
        + "dataflow edge or insert an explicit iterative fixed-point kernel.";
    assertAnswer(error("MegakernelFrontierMemoryPlanError", "Barrier",
        "\"inner\":" + errorBody("MegakernelBarrierPlanError", "Cycle", "\"unscheduled_waves\":2", cycle), cycle),
        "{\"fn\":\"plan_megakernel_frontier_memory_with_scratch\",\"waves\":[" + wave(1, 1, 1) + "," + wave(1, 1, 1)
            + "],\"dependencies\":[{\"before\":0,\"after\":1},{\"before\":1,\"after\":0}],\"resident_graph_bytes\":0,"
            + "\"budget_bytes\":1000,\"readback_bytes\":0}");
  }

  @Test
  void topologySelection() { // C1, C9, C12
    assertAnswer("{\"topology\":\"WarpSparseFrontier\",\"memory_pressure_bps\":1000,\"average_degree_bps\":40000,"
        + "\"launch_pressure_bps\":1000,\"stable_explanation\":\"megakernel-topology-v1|topology=WarpSparseFrontier"
        + "|memory_pressure_bps=1000|average_degree_bps=40000|launch_pressure_bps=1000"
        + "|reason=ultra_sparse_warp_specialized\"}",
        "{\"fn\":\"select_megakernel_topology\"," + sample(0.01, 256) + "," + G
            + ",\"memory\":{\"required_bytes\":1000,\"budget_bytes\":10000},\"launch_overhead_ns\":100.0,"
            + "\"fusion_pressure\":0.0}");
    JsonNode stable = answer("{\"fn\":\"select_megakernel_topology_stable\"," + sample(0.68, 512) + "," + G
        + ",\"memory\":{\"required_bytes\":1000,\"budget_bytes\":10000},\"launch_overhead_ns\":100.0,"
        + "\"fusion_pressure\":0.0,\"previous_topology\":\"DenseFrontier\"}");
    assertEquals("DenseFrontier", stable.get("topology").asText());
    JsonNode nan = answer("{\"fn\":\"select_megakernel_topology\",\"sample\":{\"dispatch_cost_ns\":1000.0,"
        + "\"frontier_density\":\"NaN\",\"readback_bytes\":0}," + G
        + ",\"memory\":{\"required_bytes\":1000,\"budget_bytes\":10000},\"launch_overhead_ns\":\"NaN\","
        + "\"fusion_pressure\":0.0}");
    assertEquals("WarpSparseFrontier", nan.get("topology").asText());
    assertEquals(0, nan.get("launch_pressure_bps").asLong());
  }

  @Test
  void memoryAndExecutionPlans() { // D1, D2, D5
    assertAnswer("{\"graph_bytes\":48000,\"frontier_bytes\":4096,\"scratch_bytes\":8192,\"output_bytes\":512,"
        + "\"required_bytes\":60800,\"budget_bytes\":131072,\"memory_pressure_bps\":4638}",
        "{\"fn\":\"plan_megakernel_memory_budget\",\"topology\":\"FusedWave\"," + G + "," + bytes(2_048, 131_072) + "}");
    JsonNode overBudget = answer("{\"fn\":\"plan_megakernel_memory_budget\",\"topology\":\"DenseFrontier\"," + G + ","
        + bytes(2_048, 32_768) + "}").get("error");
    ((ObjectNode) overBudget).remove("display");
    assertEquals(parse("{\"type\":\"MegakernelMemoryError\",\"variant\":\"OverBudget\",\"topology\":\"DenseFrontier\","
        + "\"required_bytes\":56704,\"budget_bytes\":32768,\"node_count\":1000,\"edge_count\":4000}"), overBudget);
    assertAnswer("{\"topology\":\"SparseFrontier\",\"memory\":{\"graph_bytes\":48000,\"frontier_bytes\":4096,"
        + "\"scratch_bytes\":10000,\"output_bytes\":512,\"required_bytes\":62608,\"budget_bytes\":80000,"
        + "\"memory_pressure_bps\":7826},\"downgraded_to_sparse\":true}",
        "{\"fn\":\"plan_megakernel_execution\"," + sample(0.5, 1_048_576) + "," + G + "," + bytes(10_000, 80_000)
            + ",\"launch_overhead_ns\":250.0,\"fusion_pressure\":0.9}");
  }

  @Test
  void cudaFrontierExecution() { // F1, F4
    assertAnswer("{\"execution\":{\"topology\":\"FusedWave\",\"memory\":{\"graph_bytes\":48000,\"frontier_bytes\":8192,"
        + "\"scratch_bytes\":16384,\"output_bytes\":2048,\"required_bytes\":74624,\"budget_bytes\":131072,"
        + "\"memory_pressure_bps\":5693},\"downgraded_to_sparse\":false},"
        + "\"barriers\":{\"groups\":[{\"waves\":[0]},{\"waves\":[1,2]},{\"waves\":[3]}],\"global_barriers\":2},"
        + "\"peak_frontier_bytes\":8192,\"peak_scratch_bytes\":4096,\"peak_output_bytes\":2048,"
        + "\"amortized_readback_bytes\":1048576,\"max_group_width\":2}",
        cudaCall("\"fn\":\"plan_cuda_frontier_megakernel_execution\",", 42, "\"Dataflow\"", sample(0.9, 1_048_576), G,
            16, 8, DOUBLING, DIAMOND, 131_072));
    JsonNode graphOverBudget = answer(cudaCall("\"fn\":\"plan_cuda_frontier_megakernel_execution\",", 910,
        "{\"Custom\":7}", sample(0.5, 4_096), "\"graph\":{\"node_count\":100,\"edge_count\":100}", 8, 8,
        "\"waves\":[" + wave(1, 1, 1) + "]", "\"dependencies\":[]", 1_000)).get("error");
    assertEquals("CudaMegakernelFrontierExecutionPlanError", graphOverBudget.get("type").asText());
    assertEquals("GroupOverBudget", graphOverBudget.get("variant").asText());
    assertEquals(1_600, graphOverBudget.get("required_bytes").asLong());
    assertEquals("resident graph bytes", graphOverBudget.get("field").asText());
  }

  @Test
  void cudaMemoryErrorsNestTheDriverError() { // docs/CONFORMANCE.md, "CUDA frontier execution": peaks of different groups are summed
    JsonNode error = answer(cudaCall("\"fn\":\"plan_cuda_frontier_megakernel_execution\",", 3, "\"Ifds\"",
        sample(0.5, 0), "\"graph\":{\"node_count\":1,\"edge_count\":0}", 0, 0,
        "\"waves\":[" + wave(60, 0, 0) + "," + wave(0, 0, 60) + "]", "\"dependencies\":[]", 100)).get("error");
    assertEquals("Memory", error.get("variant").asText());
    assertEquals("MegakernelMemoryError", error.get("inner").get("type").asText());
    assertEquals("OverBudget", error.get("inner").get("variant").asText());
    assertEquals("SparseFrontier", error.get("inner").get("topology").asText());
    assertEquals(error.get("inner").get("display"), error.get("display"));
  }

  @Test
  void planCacheSequenceSharesOneCache() { // E5, E12, and an error inside the sequence
    String select = "{\"op\":\"get_or_select_topology\",\"graph_layout_hash\":99,\"analysis_kind\":\"Dataflow\","
        + DEVICE + ",%s," + G + ",\"memory\":{\"required_bytes\":%d,\"budget_bytes\":16384},"
        + "\"launch_overhead_ns\":250.0,\"fusion_pressure\":0.95}";
    String execution = "{\"op\":\"get_or_plan_execution\",\"graph_layout_hash\":5,\"analysis_kind\":\"Dataflow\","
        + DEVICE + "," + sample(0.5, 1_048_576) + "," + G + "," + bytes(10_000, 80_000)
        + ",\"launch_overhead_ns\":250.0,\"fusion_pressure\":0.9}";
    JsonNode results = answer("{\"fn\":\"cuda_plan_cache_sequence\",\"calls\":["
        + select.formatted(sample(0.90, 1_048_576), 1_024) + "," + select.formatted(sample(0.91, 1_048_576), 1_100) + ","
        + execution + "," + cudaCall("", 1, "\"Dataflow\"", sample(0.5, 0), G, 0, 0, "\"waves\":[" + wave(1, 1, 1) + "]",
            "\"dependencies\":[{\"before\":0,\"after\":0}]", 100) + "]}").get("results");
    assertEquals(4, results.size());
    assertEquals("FusedWave", results.get(0).get("output").get("topology").asText());
    assertEquals("FusedWave", results.get(0).get("output").get("decision").get("topology").asText());
    assertEquals(results.get(0).get("output"), results.get(1).get("output"));
    assertEquals(parse("{\"hits\":1,\"misses\":1,\"evictions\":0,\"entries\":1}"), results.get(1).get("stats"));
    assertEquals("SparseFrontier", results.get(2).get("output").get("topology").asText());
    assertEquals(true, results.get(2).get("output").get("downgraded_to_sparse").asBoolean());
    assertEquals(parse("{\"hits\":1,\"misses\":2,\"evictions\":0,\"entries\":2}"), results.get(2).get("stats"));
    assertEquals("Barrier", results.get(3).get("output").get("error").get("variant").asText());
    assertEquals("SelfDependency", results.get(3).get("output").get("error").get("inner").get("variant").asText());
  }

  @Test
  void planCacheSequenceHonoursMaxEntries() { // E4 shape through the JSON surface
    String call = "{\"op\":\"get_or_select_topology\",\"graph_layout_hash\":%d,\"analysis_kind\":\"Dataflow\","
        + DEVICE + "," + sample(0.1, 0) + "," + G + ",\"memory\":{\"required_bytes\":1,\"budget_bytes\":10},"
        + "\"launch_overhead_ns\":0.0,\"fusion_pressure\":0.0}";
    JsonNode results = answer("{\"fn\":\"cuda_plan_cache_sequence\",\"max_entries\":2,\"calls\":["
        + call.formatted(1) + "," + call.formatted(2) + "," + call.formatted(1) + "," + call.formatted(3) + "]}")
        .get("results");
    assertEquals(parse("{\"hits\":1,\"misses\":3,\"evictions\":1,\"entries\":2}"), results.get(3).get("stats"));
  }

  @Test
  void planCacheSequenceMaxEntriesTable() { // docs/CONFORMANCE.md, "Plan cache sequences": default 256, LRU eviction forgets an identity's latest, 0 stores nothing
    String call = "{\"op\":\"get_or_select_topology\",\"graph_layout_hash\":%d,\"analysis_kind\":\"Dataflow\"," + DEVICE
        + ",%s," + G + ",\"memory\":{\"required_bytes\":1000,\"budget_bytes\":10000},\"launch_overhead_ns\":100.0,"
        + "\"fusion_pressure\":0.0}";
    // Hash 1 is Dense at 0.72; hash 2 takes two more entries; hash 1 at 0.68 (another bucket) is held
    // Dense only while the identity still has a latest topology, which is read before any eviction.
    String calls = "\"calls\":[" + call.formatted(1, sample(0.72, 0)) + "," + call.formatted(2, sample(0.1, 0)) + ","
        + call.formatted(2, sample(0.5, 0)) + "," + call.formatted(1, sample(0.68, 0)) + "]";
    String[][] rows = {
        {"", "DenseFrontier", "{\"hits\":0,\"misses\":4,\"evictions\":0,\"entries\":4}"},
        {"\"max_entries\":3,", "DenseFrontier", "{\"hits\":0,\"misses\":4,\"evictions\":1,\"entries\":3}"},
        {"\"max_entries\":2,", "HybridFrontier", "{\"hits\":0,\"misses\":4,\"evictions\":2,\"entries\":2}"},
        {"\"max_entries\":0,", "HybridFrontier", "{\"hits\":0,\"misses\":4,\"evictions\":0,\"entries\":0}"}};
    for (String[] row : rows) {
      JsonNode results = answer("{\"fn\":\"cuda_plan_cache_sequence\"," + row[0] + calls + "}").get("results");
      assertEquals("SparseFrontier", results.get(1).get("output").get("topology").asText(), row[0]);
      assertEquals("HybridFrontier", results.get(2).get("output").get("topology").asText(), row[0]);
      assertEquals(row[1], results.get(3).get("output").get("topology").asText(), row[0]);
      assertEquals(row[1], results.get(3).get("output").get("decision").get("topology").asText(), row[0]);
      assertEquals(parse(row[2]), results.get(3).get("stats"), row[0]);
    }
  }

  @Test
  void u64OutputsAboveTwoToTheSixtyThreeStayUnsigned() {
    String max = "18446744073709551615";
    assertAnswer("{\"topology\":\"HybridFrontier\",\"memory_pressure_bps\":0,\"average_degree_bps\":" + max
        + ",\"launch_pressure_bps\":0,\"stable_explanation\":\"megakernel-topology-v1|topology=HybridFrontier"
        + "|memory_pressure_bps=0|average_degree_bps=" + max + "|launch_pressure_bps=0|reason=transition_band_hybrid\"}",
        "{\"fn\":\"select_megakernel_topology\"," + sample(0.5, 0) + ",\"graph\":{\"node_count\":0,\"edge_count\":5},"
            + "\"memory\":{\"required_bytes\":0,\"budget_bytes\":0},\"launch_overhead_ns\":0.0,\"fusion_pressure\":0.0}");
    String bigFrontier = "\"graph\":{\"node_count\":" + max + ",\"edge_count\":0},\"bytes_per_node\":0,"
        + "\"bytes_per_edge\":0,\"frontier_bytes\":9223372036854775809,\"scratch_bytes\":0,\"output_bytes\":0";
    assertAnswer("{\"graph_bytes\":0,\"frontier_bytes\":9223372036854775809,\"scratch_bytes\":0,\"output_bytes\":0,"
        + "\"required_bytes\":9223372036854775809,\"budget_bytes\":" + max + ",\"memory_pressure_bps\":5000}",
        "{\"fn\":\"plan_megakernel_memory_budget\",\"topology\":\"SparseFrontier\"," + bigFrontier + ",\"budget_bytes\":"
            + max + "}");
    assertAnswer(error("MegakernelMemoryError", "OverBudget", "\"topology\":\"DenseFrontier\","
        + "\"required_bytes\":9223372036854775809,\"budget_bytes\":9223372036854775808,\"node_count\":" + max
        + ",\"edge_count\":0", "megakernel DenseFrontier plan requires 9223372036854775809 bytes but budget allows "
        + "9223372036854775808 bytes for graph nodes=" + max + " edges=0. Fix: choose a sparse topology, reduce fusion "
        + "pressure, shard the graph, or raise the explicit device-memory budget."),
        "{\"fn\":\"plan_megakernel_memory_budget\",\"topology\":\"DenseFrontier\"," + bigFrontier
            + ",\"budget_bytes\":9223372036854775808}");
    assertAnswer("{\"barriers\":{\"groups\":[],\"global_barriers\":0},\"peak_frontier_bytes\":0,\"peak_scratch_bytes\":0,"
        + "\"peak_output_bytes\":0,\"amortized_readback_bytes\":" + max + ",\"max_group_width\":0}",
        "{\"fn\":\"plan_megakernel_frontier_memory_with_scratch\",\"waves\":[],\"dependencies\":[],"
            + "\"resident_graph_bytes\":0,\"budget_bytes\":0,\"readback_bytes\":" + max + "}");
  }

  @Test
  void badInputIsAnInputError() {
    JsonNode error = answer("{\"fn\":\"plan_megakernel_memory_budget\",\"topology\":\"Dense\"," + G + ","
        + bytes(1, 1) + "}").get("error");
    assertEquals("InputError", error.get("type").asText());
    assertEquals(true, error.get("message").asText().contains("Fix:"));
  }

  private JsonNode answer(String line) {
    return parse(runner.answer(line));
  }

  private void assertAnswer(String expected, String line) {
    assertEquals(parse(expected), answer(line), line);
  }

  private static JsonNode parse(String json) {
    try {
      return Json.MAPPER.readTree(json);
    } catch (IOException e) {
      throw new AssertionError(json, e);
    }
  }

  private static String error(String type, String variant, String fields, String display) {
    return "{\"error\":" + errorBody(type, variant, fields, display) + "}";
  }

  private static String errorBody(String type, String variant, String fields, String display) {
    ObjectNode body = (ObjectNode) parse("{\"type\":\"" + type + "\",\"variant\":\"" + variant + "\"," + fields + "}");
    return body.put("display", display).toString();
  }

  private static String wave(long frontier, long scratch, long output) {
    return "{\"frontier_bytes\":" + frontier + ",\"scratch_bytes\":" + scratch + ",\"output_bytes\":" + output + "}";
  }

  private static String sample(double density, long readback) {
    return "\"sample\":{\"dispatch_cost_ns\":1000.0,\"frontier_density\":" + density + ",\"readback_bytes\":" + readback
        + "}";
  }

  private static String bytes(long scratch, long budget) {
    return "\"bytes_per_node\":16,\"bytes_per_edge\":8,\"frontier_bytes\":4096,\"scratch_bytes\":" + scratch
        + ",\"output_bytes\":512,\"budget_bytes\":" + budget;
  }

  private static String cudaCall(String fn, long hash, String kind, String sample, String graph, long bytesPerNode,
      long bytesPerEdge, String waves, String dependencies, long budget) {
    return "{" + fn + "\"graph_layout_hash\":" + hash + ",\"analysis_kind\":" + kind + "," + DEVICE + "," + sample + ","
        + graph + ",\"bytes_per_node\":" + bytesPerNode + ",\"bytes_per_edge\":" + bytesPerEdge + "," + waves + ","
        + dependencies + ",\"budget_bytes\":" + budget + ",\"launch_overhead_ns\":250.0,\"fusion_pressure\":0.95}";
  }
}
