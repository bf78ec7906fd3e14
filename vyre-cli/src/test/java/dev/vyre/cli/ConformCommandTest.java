package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code vyre conform} end to end: stdin lines in, one stdout line each, exit status 0. */
class ConformCommandTest {

  @Test
  void answersEveryLineInOrderAndGoesOnAfterBadInput() throws IOException {
    CliRun run = CliRun.withStdin("""
        {"fn":"plan_megakernel_barriers","wave_count":2,"dependencies":[{"before":1,"after":0}]}
        {"fn":"plan_megakernel_barriers","wave_count":
        {"fn":"no_such_fn"}
        {"fn":"drain_recommendation","accounting":{"requeue_count":18446744073709551615,"aged_promotions":0,"max_priority_age":0}}
        [1]
        {"fn":"plan_megakernel_barriers","wave_count":1,"dependencies":[{"before":0,"after":0}]}
        """, "conform");
    assertEquals(0, run.status(), run.err());
    List<String> lines = run.out().lines().toList();
    assertEquals(6, lines.size(), run.out());
    assertEquals("{\"groups\":[{\"waves\":[1]},{\"waves\":[0]}],\"global_barriers\":1}", lines.get(0));
    for (int bad : new int[] {1, 2, 4}) {
      JsonNode error = Json.MAPPER.readTree(lines.get(bad)).get("error");
      assertEquals("InputError", error.get("type").asText(), lines.get(bad));
      assertEquals("InputError", error.get("variant").asText(), lines.get(bad));
      assertTrue(error.hasNonNull("message"), lines.get(bad));
    }
    assertEquals("RequeueCounterExhausted", Json.MAPPER.readTree(lines.get(3)).get("reason").asText());
    assertEquals("{\"error\":{\"type\":\"MegakernelBarrierPlanError\",\"variant\":\"SelfDependency\",\"wave\":0,"
        + "\"display\":\"megakernel wave 0 depends on itself. Fix: remove the self-edge or split the wave into distinct "
        + "producer/consumer phases.\"}}", lines.get(5));
  }

  @Test
  void listNamesEveryFunctionOfTheContract() {
    CliRun run = CliRun.of("conform", "--list");
    assertEquals(0, run.status(), run.err());
    assertEquals(List.of("autotune_hit_capacity_multiplier", "autotune_workgroup_size", "calculate_optimal_grid",
        "cuda_plan_cache_sequence", "diffuse_priority_across_siblings", "drain_recommendation",
        "natural_gradient_autotune_step", "plan_cuda_frontier_megakernel_execution", "plan_megakernel_barriers",
        "plan_megakernel_execution", "plan_megakernel_frontier_memory_with_scratch", "plan_megakernel_memory_budget",
        "recommend", "recommend_with_promotion_evidence", "recommend_with_topology_evidence",
        "select_megakernel_topology", "select_megakernel_topology_stable", "telemetry_decode", "telemetry_health_since",
        "telemetry_recommend_launch"), run.out().lines().toList());
  }
}
