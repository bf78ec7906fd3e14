package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyCommandTest {

  private static final String H1 = "{\"queue_len\":8192,\"requested_worker_groups\":128,\"max_workgroup_size_x\":256,"
      + "\"max_compute_workgroups_per_dimension\":128,\"max_compute_invocations_per_workgroup\":256,"
      + "\"requested_hit_capacity\":0,\"expected_hits_per_item\":1,\"hot_opcode_count\":0,\"hot_window_count\":0,"
      + "\"requeue_count\":0,\"max_priority_age\":0,\"graph_node_count\":100000,\"graph_edge_count\":250000,"
      + "\"frontier_density_bps\":625,\"memory_pressure_bps\":0,\"resident_device_bytes\":900000,"
      + "\"device_memory_budget_bytes\":100000000}";

  @TempDir Path dir;

  private Path requestFile(String json) throws IOException {
    return Files.writeString(dir.resolve("request.json"), json);
  }

  @Test
  void tableShowsTheRecommendationAndInferredSignals() throws IOException {
    CliRun run = CliRun.of("policy", "recommend", "--json", requestFile(H1).toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("topology           HybridFrontier"), run.out());
    assertTrue(run.out().contains("dispatch grid      [64, 1, 1]"), run.out());
    assertTrue(run.out().contains("memory pressure    90 bps   (inferred from resident / budget bytes)"), run.out());
  }

  @Test
  void jsonOutputWithAPreviousTopologyFromStdin() {
    CliRun run = CliRun.withStdin(H1, "policy", "recommend", "--previous", "SparseFrontier", "--json-output", "--json", "-");
    assertEquals(0, run.status(), run.err());
    assertEquals("{\"geometry\":{\"workgroup_size_x\":128,\"slot_count\":8192,\"dispatch_grid\":[64,1,1]},"
        + "\"worker_groups\":128,\"hit_capacity\":16384,\"pressure\":\"Balanced\",\"execution_mode\":\"Jit\","
        + "\"topology\":\"SparseFrontier\",\"promote_hot_opcodes\":false,\"promote_hot_windows\":false,"
        + "\"age_priority_work\":false,\"estimated_peak_device_bytes\":1162144,"
        + "\"device_memory_budget_bytes\":100000000}", run.out().strip());
  }

  @Test
  void badInputEndsInAFix() throws IOException {
    assertFix(CliRun.withStdin("{\"queue_len\":1}", "policy", "recommend", "--json", "-"), "missing field \"requested_worker_groups\"");
    assertFix(CliRun.withStdin(H1.replace("\"queue_len\"", "\"queue_length\""), "policy", "recommend", "--json", "-"),
        "unknown request field \"queue_length\"");
    assertFix(CliRun.withStdin("{", "policy", "recommend", "--json", "-"), "not valid JSON");
    assertFix(CliRun.withStdin(H1, "policy", "recommend", "--previous", "Dense", "--json", "-"), "unknown topology \"Dense\"");
    assertFix(CliRun.of("policy", "recommend", "--json", dir.resolve("missing.json").toString()),
        "cannot read the request");
    assertFix(CliRun.withStdin(H1.replace("\"device_memory_budget_bytes\":100000000", "\"device_memory_budget_bytes\":1000"),
        "policy", "recommend", "--json", "-"), "device out of memory: requested 1031072 bytes, 1000 available.");
  }

  private static void assertFix(CliRun run, String problem) {
    assertEquals(2, run.status(), run.out());
    assertTrue(run.err().contains(problem), run.err());
    assertTrue(run.err().strip().lines().reduce((a, b) -> b).orElseThrow().contains("Fix: "), run.err());
  }
}
