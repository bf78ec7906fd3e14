package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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

  /** Exit status, stdout and stderr of one {@code vyre} run with {@code stdin}. */
  private record Run(int status, String out, String err) {}

  private static Run vyre(String stdin, String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    InputStream in = System.in;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
      int status = VyreCommand.execute(args);
      return new Run(status, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
      System.setIn(in);
    }
  }

  private Path requestFile(String json) throws IOException {
    return Files.writeString(dir.resolve("request.json"), json);
  }

  @Test
  void tableShowsTheRecommendationAndInferredSignals() throws IOException {
    Run run = vyre("", "policy", "recommend", "--json", requestFile(H1).toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("topology           HybridFrontier"), run.out());
    assertTrue(run.out().contains("dispatch grid      [64, 1, 1]"), run.out());
    assertTrue(run.out().contains("memory pressure    90 bps   (inferred from resident / budget bytes)"), run.out());
  }

  @Test
  void jsonOutputWithAPreviousTopologyFromStdin() {
    Run run = vyre(H1, "policy", "recommend", "--previous", "SparseFrontier", "--json-output", "--json", "-");
    assertEquals(0, run.status(), run.err());
    assertEquals("{\"geometry\":{\"workgroup_size_x\":128,\"slot_count\":8192,\"dispatch_grid\":[64,1,1]},"
        + "\"worker_groups\":128,\"hit_capacity\":16384,\"pressure\":\"Balanced\",\"execution_mode\":\"Jit\","
        + "\"topology\":\"SparseFrontier\",\"promote_hot_opcodes\":false,\"promote_hot_windows\":false,"
        + "\"age_priority_work\":false,\"estimated_peak_device_bytes\":1162144,"
        + "\"device_memory_budget_bytes\":100000000}", run.out().strip());
  }

  @Test
  void badInputEndsInAFix() throws IOException {
    assertFix(vyre("{\"queue_len\":1}", "policy", "recommend", "--json", "-"), "missing field \"requested_worker_groups\"");
    assertFix(vyre(H1.replace("\"queue_len\"", "\"queue_length\""), "policy", "recommend", "--json", "-"),
        "unknown request field \"queue_length\"");
    assertFix(vyre("{", "policy", "recommend", "--json", "-"), "not valid JSON");
    assertFix(vyre(H1, "policy", "recommend", "--previous", "Dense", "--json", "-"), "unknown topology \"Dense\"");
    assertFix(vyre("", "policy", "recommend", "--json", dir.resolve("missing.json").toString()),
        "cannot read the request");
    assertFix(vyre(H1.replace("\"device_memory_budget_bytes\":100000000", "\"device_memory_budget_bytes\":1000"),
        "policy", "recommend", "--json", "-"), "device out of memory: requested 1031072 bytes, 1000 available.");
  }

  private static void assertFix(Run run, String problem) {
    assertEquals(2, run.status(), run.out());
    assertTrue(run.err().contains(problem), run.err());
    assertTrue(run.err().strip().lines().reduce((a, b) -> b).orElseThrow().contains("Fix: "), run.err());
  }
}
