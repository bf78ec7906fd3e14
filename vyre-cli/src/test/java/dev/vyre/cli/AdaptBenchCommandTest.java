package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vyre bench adapt} on the reference backend, small: every configuration runs every phase. */
class AdaptBenchCommandTest {

  @TempDir Path dir;

  @Test
  void eachConfigurationRunsThePhasesAndTheRatiosCompareThem() throws IOException {
    Path json = dir.resolve("adapt.json");
    CliRun run = CliRun.of("bench", "adapt", "--backend", "reference", "--round-trips", "500", "--tasks", "20000",
        "--cycles", "1", "--json", json.toString());
    String text = run.out();
    assertEquals(0, run.status(), text + run.err());
    JsonNode results = Json.MAPPER.readTree(json.toFile());
    for (String configuration : new String[] {"fixed_all", "fixed_one", "adaptive"}) {
      assertTrue(results.get(configuration + "_round_trip_p50_us").asDouble() > 0, text);
      assertTrue(results.get(configuration + "_burst_mtasks_per_s").asDouble() > 0, text);
      assertTrue(results.get(configuration + "_phases_s").asDouble() > 0, text);
      assertTrue(text.contains("cycle 1, " + configuration), text);
    }
    assertTrue(results.get("adaptive_over_best_fixed_time").asDouble() > 0, text);
    assertEquals(20000, results.get("burst_tasks").asLong());
  }

  @Test
  void settingsThatMeasureNothingAreRefusedWithAFix() {
    CliRun run = CliRun.of("bench", "adapt", "--backend", "reference", "--cycles", "0");
    assertEquals(2, run.status(), run.err());
    assertTrue(run.err().contains("--cycles") && run.err().contains("Fix: pass 1 or more (vyre bench adapt --help)"), run.err());
  }
}
