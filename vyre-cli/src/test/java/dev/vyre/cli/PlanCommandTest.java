package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vyre plan}: readable plans for people, and errors that end with a fix. */
class PlanCommandTest {

  @TempDir Path dir;

  @Test
  void barriersPrintGroupsInVyreOrder() throws IOException {
    Path file = write("{\"wave_count\":4,\"dependencies\":[{\"before\":0,\"after\":3},{\"before\":0,\"after\":2},"
        + "{\"before\":0,\"after\":1}]}");
    CliRun run = CliRun.of("plan", "barriers", "--json", file.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals("""
        4 waves in 2 barrier-free groups, 1 global barrier
          group 0 (1 wave): 0
          group 1 (3 waves): 3 2 1
        """, run.out());
  }

  @Test
  void frontierReadsStdinAndPrintsPeaks() {
    CliRun run = CliRun.withStdin("{\"waves\":[{\"frontier_bytes\":10,\"scratch_bytes\":10,\"output_bytes\":10},"
        + "{\"frontier_bytes\":10,\"scratch_bytes\":10,\"output_bytes\":10}],\"resident_graph_bytes\":0,"
        + "\"budget_bytes\":100,\"readback_bytes\":4096}", "plan", "frontier", "--json", "-");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().startsWith("2 waves in 2 budget-fitted groups, 1 global barrier\n"), run.out());
    assertTrue(run.out().contains("peak bytes of one group: frontier 10, scratch 10, output 10; widest group 1 wave"));
    assertTrue(run.out().contains("amortized readback: 4096 bytes"));
  }

  @Test
  void cudaFrontierSaysWhichTopologyAndWhy() throws IOException {
    Path file = write("{\"graph_layout_hash\":909,\"analysis_kind\":\"Dataflow\",\"device\":{\"sm_major\":12,"
        + "\"sm_minor\":0,\"warp_size\":32,\"supports_grid_sync\":true,\"supports_tensor_cores\":true,"
        + "\"max_workgroup_size\":1024},\"sample\":{\"dispatch_cost_ns\":1000.0,\"frontier_density\":0.5,"
        + "\"readback_bytes\":4096},\"graph\":{\"node_count\":1,\"edge_count\":0},\"bytes_per_node\":0,"
        + "\"bytes_per_edge\":0,\"waves\":[{\"frontier_bytes\":10,\"scratch_bytes\":10,\"output_bytes\":10},"
        + "{\"frontier_bytes\":10,\"scratch_bytes\":10,\"output_bytes\":10}],\"budget_bytes\":100,"
        + "\"launch_overhead_ns\":250.0,\"fusion_pressure\":0.95}");
    CliRun run = CliRun.of("plan", "cuda-frontier", "--json", file.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("topology: FusedWave\n"), run.out());
    assertTrue(run.out().contains("why: launch_and_readback_pressure_fused"), run.out());
    assertTrue(run.out().contains("= 60 of 100 bytes"), run.out());
  }

  @Test
  void plannerAndInputErrorsEndWithAFix() throws IOException {
    CliRun cycle = CliRun.withStdin("{\"wave_count\":2,\"dependencies\":[{\"before\":0,\"after\":1},{\"before\":1,\"after\":0}]}",
        "plan", "barriers", "--json", "-");
    assertEquals(2, cycle.status());
    assertTrue(cycle.err().contains("cycle with 2 unscheduled waves. Fix:"), cycle.err());

    CliRun missing = CliRun.of("plan", "barriers", "--json", dir.resolve("absent.json").toString());
    assertEquals(2, missing.status());
    assertTrue(missing.err().contains("does not exist. Fix:"), missing.err());

    CliRun broken = CliRun.of("plan", "frontier", "--json", write("{\"waves\":").toString());
    assertEquals(2, broken.status());
    assertTrue(broken.err().contains("is not valid JSON") && broken.err().contains("Fix:"), broken.err());
  }

  @Test
  void aFieldErrorNamesTheInputNotConform() throws IOException {
    Path input = write("{\"wave_count\":3,\"dependencies\":[]}");
    CliRun run = CliRun.of("plan", "frontier", "--json", input.toString());
    assertEquals(2, run.status());
    assertEquals("vyre: " + input + ": missing field \"readback_bytes\". Fix: add \"readback_bytes\" to the input object\n", run.err());
    CliRun stdin = CliRun.withStdin("{\"wave_count\":-1,\"dependencies\":[]}", "plan", "barriers", "--json", "-");
    assertEquals(2, stdin.status());
    assertTrue(stdin.err().startsWith("vyre: stdin: wave_count is outside u64: -1. Fix: "), stdin.err());
  }

  private Path write(String json) throws IOException {
    Path file = Files.createTempFile(dir, "plan", ".json");
    return Files.writeString(file, json);
  }
}
