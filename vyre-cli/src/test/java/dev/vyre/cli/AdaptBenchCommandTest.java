package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vyre bench adapt} on the reference backend, small: every load runs every configuration and reports it. */
class AdaptBenchCommandTest {

  private static final List<String> CONFIGURATIONS = List.of("fixed_all", "fixed_one", "adaptive");

  @TempDir Path dir;

  @Test
  void everyLoadRunsEachConfigurationAndTheRatiosCompareThem() throws IOException {
    Path json = dir.resolve("adapt.json");
    CliRun run = CliRun.of("bench", "adapt", "--backend", "reference", "--round-trips", "500", "--tasks", "20000",
        "--cycles", "1", "--corpus-size", "300000", "--cost-steps", "4", "--json", json.toString());
    String text = run.out();
    assertEquals(0, run.status(), text + run.err());
    JsonNode results = Json.MAPPER.readTree(json.toFile());
    for (String configuration : CONFIGURATIONS) {
      assertTrue(results.get(configuration + "_round_trip_p50_us").asDouble() > 0, text);
      assertTrue(results.get(configuration + "_burst_mtasks_per_s").asDouble() > 0, text);
      assertTrue(results.get(configuration + "_phases_s").asDouble() > 0, text);
      assertTrue(row(text, "round_trips", configuration, "round trip p50 "), text);

      assertTrue(results.get("density_" + configuration + "_scan_gb_per_s").asDouble() > 0, text);
      assertTrue(results.get("density_" + configuration + "_phases_s").asDouble() > 0, text);
      // Every configuration finds every planted match: one per 64 KiB of the sparse half, one per 16 bytes of the dense half.
      assertEquals(3 + 150_000 / 16, results.get("density_" + configuration + "_matches").asLong(), text);
      assertTrue(results.has("density_" + configuration + "_rescans"), text);
      assertTrue(row(text, "density", configuration, " matches, "), text);

      assertTrue(results.get("cost_" + configuration + "_cheap_mtasks_per_s").asDouble() > 0, text);
      assertTrue(results.get("cost_" + configuration + "_costly_mtasks_per_s").asDouble() > 0, text);
      assertTrue(results.get("cost_" + configuration + "_phases_s").asDouble() > 0, text);
      assertTrue(row(text, "cost", configuration, "costly "), text);

      assertTrue(results.get("promotion_" + configuration + "_first_scan_gb_per_s").asDouble() > 0, text);
      assertTrue(results.get("promotion_" + configuration + "_hot_scans_gb_per_s").asDouble() > 0, text);
      // Promoted or not, every configuration finds the same matches.
      assertEquals(results.get("promotion_fixed_all_matches").asLong(), results.get("promotion_" + configuration + "_matches")
          .asLong(), text);
      assertTrue(row(text, "promotion", configuration, "later scans "), text);

      assertTrue(results.get("resident_" + configuration + "_gb_per_s").asDouble() > 0, text);
      assertEquals(results.get("promotion_fixed_all_matches").asLong(), results.get("resident_" + configuration + "_matches")
          .asLong(), "the same corpus held in memory: " + text);
      // The reference backend's promoted DFA_STEP is no faster, so its policy never promotes a resident scan's table.
      assertEquals(0, results.get("resident_" + configuration + "_promoted_tasks").asLong(), text);
      assertTrue(row(text, "resident", configuration, "scans "), text);
    }
    assertTrue(results.get("promotion_fixed_all_matches").asLong() > 0, text);
    // Whether the loop saw the tiny corpus's tasks in flight is timing; that it reports is not.
    assertTrue(results.has("promotion_adaptive_promotions"), text);
    for (String prefix : List.of("", "density_", "cost_", "promotion_", "resident_")) {
      assertTrue(results.get(prefix + "adaptive_over_best_fixed_time").asDouble() > 0, prefix + text);
      assertTrue(results.get(prefix + "fixed_all_over_adaptive_time").asDouble() > 0, prefix + text);
      assertEquals("reference", results.get(prefix + "backend").asText(), prefix);
    }
    assertEquals(20000, results.get("burst_tasks").asLong());
  }

  /** Whether the table has the row of cycle 1 of this load and configuration, with {@code measure} and the phases' time. */
  private static boolean row(String text, String workload, String configuration, String measure) {
    return text.lines().anyMatch(line -> line.startsWith("  cycle 1, ")
        && List.of(line.strip().split("\\s+")).subList(2, 4).equals(List.of(workload, configuration))
        && line.contains(measure) && line.contains(", phases "));
  }

  @Test
  void oneLoadRunsAlone() throws IOException {
    Path json = dir.resolve("cost.json");
    CliRun run = CliRun.of("bench", "adapt", "--backend", "reference", "--workloads", "cost", "--tasks", "2000",
        "--cycles", "1", "--cost-steps", "4", "--json", json.toString());
    assertEquals(0, run.status(), run.out() + run.err());
    JsonNode results = Json.MAPPER.readTree(json.toFile());
    assertTrue(results.has("cost_adaptive_phases_s") && !results.has("adaptive_phases_s") && !results.has("density_adaptive_phases_s"),
        results.toString());
    assertEquals("workers,promotion", results.get("adaptive_loops").asText());
  }

  @Test
  void theAdaptiveConfigurationCanRunOneLoopAlone() throws IOException {
    Path json = dir.resolve("promotion.json");
    CliRun run = CliRun.of("bench", "adapt", "--backend", "reference", "--workloads", "promotion", "--loops", "workers",
        "--cycles", "1", "--corpus-size", "300000", "--json", json.toString());
    assertEquals(0, run.status(), run.out() + run.err());
    JsonNode results = Json.MAPPER.readTree(json.toFile());
    assertEquals("workers", results.get("adaptive_loops").asText());
    // Without the promotion loop nothing is promoted.
    assertEquals(0, results.get("promotion_adaptive_promotions").asLong(), results.toString());
  }

  @Test
  void settingsThatMeasureNothingAreRefusedWithAFix() {
    CliRun run = CliRun.of("bench", "adapt", "--backend", "reference", "--cycles", "0");
    assertEquals(2, run.status(), run.err());
    assertTrue(run.err().contains("--cycles") && run.err().contains("Fix: pass 1 or more (vyre bench adapt --help)"), run.err());
    CliRun unknown = CliRun.of("bench", "adapt", "--backend", "reference", "--workloads", "cost,nap");
    assertEquals(2, unknown.status(), unknown.err());
    assertTrue(unknown.err().contains("no workload \"nap\"") && unknown.err().contains("Fix: use some of round_trips,density,cost,promotion,resident"),
        unknown.err());
    CliRun loop = CliRun.of("bench", "adapt", "--backend", "reference", "--loops", "drain");
    assertEquals(2, loop.status(), loop.err());
    assertTrue(loop.err().contains("no loop \"drain\"") && loop.err().contains("Fix: use one or both of workers,promotion"),
        loop.err());
  }
}
