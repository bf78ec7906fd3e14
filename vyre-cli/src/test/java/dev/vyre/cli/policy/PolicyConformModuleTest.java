package dev.vyre.cli.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.ConformRegistry;
import dev.vyre.cli.conform.ConformRunner;
import dev.vyre.cli.conform.Json;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Sample JSON lines of docs/CONFORMANCE.md, "Launch policy" and "Other policy functions", through {@link ConformRunner},
 * checked against vyre's vectors.
 */
class PolicyConformModuleTest {

  private static final ConformRunner RUNNER = runner();

  private static ConformRunner runner() {
    ConformRegistry registry = new ConformRegistry();
    new PolicyConformModule().register(registry);
    return new ConformRunner(registry);
  }

  /** A request object: {@code direct(q, w, x)} with overrides, all 17 fields present. */
  private static String request(long queue, long workers, long maxX, Object... overrides) {
    Map<String, Object> fields = new LinkedHashMap<>();
    for (String field : PolicyJson.REQUEST_FIELDS) {
      fields.put(field, 0);
    }
    fields.put("queue_len", queue);
    fields.put("requested_worker_groups", workers);
    fields.put("max_workgroup_size_x", maxX);
    fields.put("max_compute_workgroups_per_dimension", workers);
    fields.put("max_compute_invocations_per_workgroup", maxX);
    fields.put("expected_hits_per_item", 1);
    for (int i = 0; i < overrides.length; i += 2) {
      fields.put((String) overrides[i], overrides[i + 1]);
    }
    StringBuilder json = new StringBuilder("{");
    fields.forEach((name, value) -> json.append(json.length() > 1 ? "," : "").append('"').append(name).append("\":")
        .append(value));
    return json.append('}').toString();
  }

  private static String recommendation(long width, long slots, long grid, long workers, long hit, String pressure,
      String mode, String topology, boolean ops, boolean win, boolean age, String peak, String budget) {
    return "{\"geometry\":{\"workgroup_size_x\":" + width + ",\"slot_count\":" + slots + ",\"dispatch_grid\":[" + grid
        + ",1,1]},\"worker_groups\":" + workers + ",\"hit_capacity\":" + hit + ",\"pressure\":\"" + pressure
        + "\",\"execution_mode\":\"" + mode + "\",\"topology\":\"" + topology + "\",\"promote_hot_opcodes\":" + ops
        + ",\"promote_hot_windows\":" + win + ",\"age_priority_work\":" + age + ",\"estimated_peak_device_bytes\":"
        + peak + ",\"device_memory_budget_bytes\":" + budget + "}";
  }

  private static void assertAnswer(String expected, String line) throws IOException {
    assertEquals(Json.MAPPER.readTree(expected), Json.MAPPER.readTree(RUNNER.answer(line)), line);
  }

  private static JsonNode answer(String line) throws IOException {
    return Json.MAPPER.readTree(RUNNER.answer(line));
  }

  @Test
  void recommendVectors() throws IOException {
    assertAnswer(recommendation(64, 320, 5, 64, 1800, "Light", "Interpreter", "SparseFrontier", false, false, false,
            "28800", "0"),
        "{\"fn\":\"recommend\",\"request\":" + request(300, 64, 256, "expected_hits_per_item", 3)
            + ",\"previous_topology\":null}");
    assertAnswer(recommendation(96, 16416, 96, 96, 16384, "Balanced", "Jit", "MemoryConstrained", false, false, false,
            "262144", "0"),
        "{\"fn\":\"recommend\",\"request\":" + request(16384, 128, 256, "graph_node_count", 16384, "graph_edge_count",
            250000, "frontier_density_bps", 9000, "memory_pressure_bps", 8500) + ",\"previous_topology\":null}");
    assertAnswer(recommendation(85, 1105, 13, 85, 1024, "Light", "Interpreter", "MemoryConstrained", false, false,
            false, "916384", "1000000"),
        "{\"fn\":\"recommend\",\"request\":" + request(1024, 128, 256, "resident_device_bytes", 900000,
            "device_memory_budget_bytes", 1000000) + "}");
    assertAnswer(recommendation(255, 1020, 4, 255, 2000, "Light", "Interpreter", "SparseFrontier", false, false, false,
            "32000", "0"),
        "{\"fn\":\"recommend\",\"request\":" + request(1000, 0, 256, "max_compute_workgroups_per_dimension", 65535,
            "max_compute_invocations_per_workgroup", 1024) + ",\"previous_topology\":null}");
  }

  @Test
  void previousTopologyAppliesHysteresis() throws IOException {
    String h1 = request(8192, 128, 256, "graph_node_count", 100000, "graph_edge_count", 250000,
        "frontier_density_bps", 625);
    assertAnswer(recommendation(128, 8192, 64, 128, 16384, "Balanced", "Jit", "SparseFrontier", false, false, false,
        "262144", "0"), "{\"fn\":\"recommend\",\"request\":" + h1 + ",\"previous_topology\":\"SparseFrontier\"}");
    assertEquals("HybridFrontier",
        answer("{\"fn\":\"recommend\",\"request\":" + h1 + ",\"previous_topology\":null}").get("topology").asText());
  }

  @Test
  void recommendErrors() throws IOException {
    assertAnswer("{\"error\":{\"type\":\"BackendError\",\"variant\":\"DeviceOutOfMemory\",\"requested\":132096,"
            + "\"available\":65536,\"display\":\"device out of memory: requested 132096 bytes, 65536 available."
            + "          Fix: reduce buffer sizes or split the dispatch into smaller chunks.\"}}",
        "{\"fn\":\"recommend\",\"request\":" + request(1024, 64, 256, "expected_hits_per_item", 4,
            "resident_device_bytes", 1024, "device_memory_budget_bytes", 65536) + ",\"previous_topology\":null}");
    String message = "megakernel max_workgroup_size_x must be non-zero. "
        + "Fix: pass live adapter limits instead of a zero limit.";
    assertAnswer("{\"error\":{\"type\":\"BackendError\",\"variant\":\"Other\",\"message\":\"" + message
        + "\",\"display\":\"" + message + "\"}}", "{\"fn\":\"recommend\",\"request\":" + request(10, 64, 0) + "}");
    assertAnswer("{\"error\":{\"type\":\"BackendError\",\"variant\":\"Other\",\"message\":\"megakernel peak resident "
            + "byte estimate overflowed u64. Fix: reduce resident buffers or scratch capacity.\",\"display\":\"megakernel "
            + "peak resident byte estimate overflowed u64. Fix: reduce resident buffers or scratch capacity.\"}}",
        "{\"fn\":\"recommend\",\"request\":" + request(1, 64, 256, "resident_device_bytes", "18446744073709551615")
            + "}");
  }

  @Test
  void badInputIsAnInputError() throws IOException {
    JsonNode missing = answer("{\"fn\":\"recommend\",\"request\":{\"queue_len\":1}}");
    assertEquals("InputError", missing.get("error").get("type").asText());
    JsonNode topology = answer("{\"fn\":\"recommend\",\"request\":" + request(1, 64, 256)
        + ",\"previous_topology\":\"Sparse\"}");
    assertTrue(topology.get("error").get("message").asText().contains("unknown topology \"Sparse\""));
    JsonNode wide = answer("{\"fn\":\"recommend\",\"request\":" + request(1, 64, 256, "memory_pressure_bps", 65536)
        + "}");
    assertEquals("InputError", wide.get("error").get("type").asText());
  }

  @Test
  void topologyEvidenceR4() throws IOException {
    String r4 = request(131072, 256, 256, "graph_node_count", 32768, "graph_edge_count", 500000,
        "frontier_density_bps", 7500, "hot_window_count", 4, "resident_device_bytes", 67108864);
    assertAnswer("{\"recommendation\":" + recommendation(256, 131072, 256, 256, 262144, "Balanced", "Jit",
            "FusedDense", false, true, false, "71303168", "0") + ",\"evidence\":{\"schema_version\":1,"
            + "\"queue_pressure\":\"Balanced\",\"frontier_density_bps\":7500,\"semiring_frontier_density_bps\":7500,"
            + "\"selected_topology\":\"FusedDense\",\"graphblas_switch_class\":\"Dense\",\"resident_device_bytes\":"
            + "67108864,\"estimated_peak_device_bytes\":71303168,\"output_parity_required\":true,\"is_complete\":true}}",
        "{\"fn\":\"recommend_with_topology_evidence\",\"request\":" + r4 + "}");
  }

  @Test
  void evidenceReportsTheInferredDensity() throws IOException {
    JsonNode result = answer("{\"fn\":\"recommend_with_topology_evidence\",\"request\":" + request(90000, 256, 256,
        "graph_node_count", 100000, "graph_edge_count", 750000, "hot_opcode_count", 8) + "}");
    assertEquals(9000, result.get("evidence").get("frontier_density_bps").asInt());
  }

  @Test
  void promotionEvidenceR5() throws IOException {
    assertAnswer("{\"recommendation\":" + recommendation(64, 1024, 16, 64, 2048, "Balanced", "Jit", "SparseFrontier",
            false, true, false, "32768", "0") + ",\"evidence\":{\"schema_version\":1,\"queue_len\":1024,"
            + "\"jit_queue_len_threshold\":4096,\"hot_opcode_count\":0,\"hot_opcode_threshold\":8,\"hot_window_count\":4,"
            + "\"hot_window_threshold\":4,\"execution_mode\":\"Jit\",\"promote_hot_opcodes\":false,"
            + "\"promote_hot_windows\":true,\"promotion_route\":\"WindowJit\",\"fused_descriptor_window_required\":true,"
            + "\"output_parity_required\":true,\"is_complete\":true}}",
        "{\"fn\":\"recommend_with_promotion_evidence\",\"request\":" + request(1024, 64, 256, "hot_window_count", 4)
            + "}");
  }

  @Test
  void calculateOptimalGridTable() throws IOException {
    List<long[]> rows = List.of(new long[] {300, 64, 256, 64, 256, 64, 320, 5, 64},
        new long[] {0, 0, 256, 65535, 256, 255, 255, 1, 255}, new long[] {5000, 0, 256, 65535, 4096, 255, 5100, 20, 255},
        new long[] {5000, 2000, 1024, 65535, 1024, 1024, 5120, 5, 2000}, new long[] {1, 1, 1, 1, 1, 1, 1, 1, 1},
        new long[] {4294967295L, 64, 256, 64, 256, 64, 4294967232L, 64, 64});
    for (long[] row : rows) {
      assertAnswer("{\"geometry\":{\"workgroup_size_x\":" + row[5] + ",\"slot_count\":" + row[6]
              + ",\"dispatch_grid\":[" + row[7] + ",1,1]},\"worker_groups\":" + row[8] + "}",
          "{\"fn\":\"calculate_optimal_grid\",\"request\":{\"queue_len\":" + row[0] + ",\"requested_worker_groups\":"
              + row[1] + "},\"limits\":{\"max_workgroup_size_x\":" + row[2]
              + ",\"max_compute_workgroups_per_dimension\":" + row[3] + ",\"max_compute_invocations_per_workgroup\":"
              + row[4] + "}}");
    }
    JsonNode error = answer("{\"fn\":\"calculate_optimal_grid\",\"request\":{\"queue_len\":0,"
        + "\"requested_worker_groups\":0},\"limits\":{\"max_workgroup_size_x\":1,"
        + "\"max_compute_workgroups_per_dimension\":1,\"max_compute_invocations_per_workgroup\":0}}");
    assertEquals("megakernel max_compute_invocations_per_workgroup must be non-zero. "
        + "Fix: pass live adapter limits instead of a zero limit.", error.get("error").get("message").asText());
  }

  @Test
  void drainRecommendations() throws IOException {
    assertAnswer("{\"should_drain\":true,\"reason\":\"RequeueCounterNearLimit\",\"requeue_count\":18446744073709551607,"
            + "\"aged_promotions\":3,\"max_priority_age\":64,\"requeue_counter_headroom\":8,"
            + "\"aged_promotion_counter_headroom\":18446744073709551612,"
            + "\"fix\":\"drain scheduler telemetry before counters reach u64::MAX\"}",
        "{\"fn\":\"drain_recommendation\",\"accounting\":{\"requeue_count\":18446744073709551607,"
            + "\"aged_promotions\":3,\"max_priority_age\":64}}");
    assertAnswer("{\"should_drain\":false,\"reason\":\"None\",\"requeue_count\":0,\"aged_promotions\":0,"
            + "\"max_priority_age\":0,\"requeue_counter_headroom\":18446744073709551615,"
            + "\"aged_promotion_counter_headroom\":18446744073709551615,"
            + "\"fix\":\"drain scheduler telemetry before counters reach u64::MAX\"}",
        "{\"fn\":\"drain_recommendation\",\"accounting\":{\"requeue_count\":0,\"aged_promotions\":0,"
            + "\"max_priority_age\":0}}");
    assertEquals("AgedPromotionCounterNearLimit", answer("{\"fn\":\"drain_recommendation\",\"accounting\":"
        + "{\"requeue_count\":5,\"aged_promotions\":18446744073709550591,\"max_priority_age\":0}}")
        .get("reason").asText());
  }

  @Test
  void floatFunctions() throws IOException {
    assertEquals("{\"result\":[9,19]}", RUNNER.answer("{\"fn\":\"diffuse_priority_across_siblings\","
        + "\"priority_stalks\":[10.0,20.0],\"restriction_diag\":[0.5,0.25],\"damping\":0.2,\"iterations\":1}"));
    assertEquals("{\"result\":[2.25,1.125,0.5625]}", RUNNER.answer("{\"fn\":\"diffuse_priority_across_siblings\","
        + "\"priority_stalks\":[4.0,2.0,1.0],\"restriction_diag\":[1.0,1.0,1.0],\"damping\":0.25,\"iterations\":2}"));
    assertEquals("{\"result\":[4,\"NaN\",\"-Infinity\"]}", RUNNER.answer("{\"fn\":\"diffuse_priority_across_siblings\","
        + "\"priority_stalks\":[4.0,\"NaN\",\"-Infinity\"],\"restriction_diag\":[1.0],\"damping\":0.25,\"iterations\":2}"));
    assertEquals("{\"result\":[-1.5,1]}", RUNNER.answer("{\"fn\":\"natural_gradient_autotune_step\","
        + "\"m_inv_sqrt\":[1.0,0.0,0.0,1.0],\"grad\":[3.0,-2.0],\"n\":2,\"learning_rate\":0.5}"));
    assertEquals("{\"result\":[]}", RUNNER.answer("{\"fn\":\"natural_gradient_autotune_step\","
        + "\"m_inv_sqrt\":[1.0,0.0,0.0],\"grad\":[3.0,-2.0],\"n\":2,\"learning_rate\":0.5}"));
    assertEquals("{\"result\":[-0]}", RUNNER.answer("{\"fn\":\"natural_gradient_autotune_step\","
        + "\"m_inv_sqrt\":[1.0],\"grad\":[0.0],\"n\":1,\"learning_rate\":1e308}"));
    assertEquals("{\"result\":[" + "1" + "0".repeat(308) + "]}", RUNNER.answer("{\"fn\":\"natural_gradient_autotune_step\","
        + "\"m_inv_sqrt\":[1.0],\"grad\":[-1.0],\"n\":1,\"learning_rate\":1e308}"));
  }

  @Test
  void subnormalResultsKeepRustsOneDigit() { // was 0.000…49 and -0.000…79 (Double.toString's two digits)
    assertEquals("{\"result\":[0." + "0".repeat(323) + "5,-0." + "0".repeat(322) + "8]}",
        RUNNER.answer("{\"fn\":\"diffuse_priority_across_siblings\",\"priority_stalks\":[5e-324,-8e-323],"
            + "\"restriction_diag\":[],\"damping\":0.5,\"iterations\":3}"));
  }

  @Test
  void autotuneFunctions() throws IOException {
    assertEquals("{\"result\":4}", RUNNER.answer("{\"fn\":\"autotune_hit_capacity_multiplier\","
        + "\"candidate_multipliers\":[1,2,4,8],\"costs\":[9.0,5.0,1.0,3.0]}"));
    assertEquals("{\"result\":2}", RUNNER.answer("{\"fn\":\"autotune_hit_capacity_multiplier\","
        + "\"candidate_multipliers\":[],\"costs\":[9.0]}"));
    assertEquals("{\"result\":64}", RUNNER.answer("{\"fn\":\"autotune_workgroup_size\","
        + "\"candidate_sizes\":[32,64,128],\"costs\":[7.0,2.0,3.0],\"current_size\":32}"));
    assertEquals("{\"result\":64}", RUNNER.answer("{\"fn\":\"autotune_workgroup_size\","
        + "\"candidate_sizes\":[32,64],\"costs\":[0.0,-0.0],\"current_size\":1}"));
    assertEquals("{\"result\":32}", RUNNER.answer("{\"fn\":\"autotune_workgroup_size\","
        + "\"candidate_sizes\":[32,64],\"costs\":[\"Infinity\",\"NaN\"],\"current_size\":1}"));
  }

  @Test
  void theRunnerAnswersEveryLineInOrder() throws IOException {
    String lines = "{\"fn\":\"autotune_hit_capacity_multiplier\",\"candidate_multipliers\":[],\"costs\":[]}\n"
        + "not json\n{\"fn\":\"recommend\",\"request\":" + request(0, 64, 256) + "}\n";
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    long answered = RUNNER.run(new BufferedReader(new StringReader(lines)), new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String[] out = bytes.toString(StandardCharsets.UTF_8).split("\n");
    assertEquals(3, answered);
    assertEquals("{\"result\":2}", out[0]);
    assertTrue(out[1].contains("\"InputError\""));
    assertEquals("Empty", Json.MAPPER.readTree(out[2]).get("topology").asText());
  }

  @Test
  void theModuleIsFoundThroughTheServiceLoader() {
    List<String> names = new java.util.ArrayList<>();
    ConformRegistry.loadAll().names().forEach(names::add);
    assertTrue(names.containsAll(List.of("recommend", "recommend_with_topology_evidence",
        "recommend_with_promotion_evidence", "calculate_optimal_grid", "drain_recommendation",
        "diffuse_priority_across_siblings", "autotune_hit_capacity_multiplier", "autotune_workgroup_size",
        "natural_gradient_autotune_step")), names.toString());
  }
}
