package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vyre bench graph} on tiny graphs on the reference backend: the table, the JSON, the checks of its options. */
class GraphBenchCommandTest {

  @TempDir Path dir;

  @Test
  void printsJsonOrATableOfTheContenders() throws IOException {
    CliRun json = CliRun.of("bench", "graph", "--graphs", "grid,kron", "--scale", "5", "--grid-side", "4", "--sources",
        "2", "--json");
    assertEquals(0, json.status(), json.err());
    JsonNode report = Json.MAPPER.readTree(json.out());
    assertEquals(2, report.get("graphs").size());
    JsonNode grid = report.get("graphs").get(0);
    assertEquals("grid", grid.get("graph").asText());
    assertEquals(16, grid.get("vertices").asInt());
    assertEquals(2, grid.get("sources").size());
    JsonNode engine = grid.get("bfs").get(0);
    assertEquals("engine", engine.get("contender").asText());
    assertTrue(engine.get("measure").get("gteps").asDouble() > 0, json.out());
    assertTrue(engine.get("measure").get("mean_level_millis").asDouble() > 0, json.out());
    assertTrue(engine.get("measure").get("topology_mix").size() > 0, json.out());
    // The reference engine says where its grid-wide levels' time went; the serial BFS has no levels of workers.
    assertTrue(engine.get("measure").get("breakdown").get("workers").asInt() > 0, json.out());
    assertTrue(grid.get("bfs").get(3).get("measure").get("breakdown").isNull(), json.out());
    assertEquals("skipped: per-level launch is CUDA's baseline", grid.get("bfs").get(1).get("skipped").asText());
    assertTrue(grid.get("ratios").get("engine_vs_serial").asDouble() > 0, json.out());
    assertEquals(1, grid.get("components").get(0).get("components").asInt());
    assertTrue(json.err().contains("source 2/2"), json.err());

    Path file = dir.resolve("graph.json");
    CliRun table = CliRun.of("bench", "graph", "--graphs", "uniform", "--uniform-vertices", "64", "--sources", "1",
        "--json", file.toString());
    assertEquals(0, table.status(), table.err());
    assertTrue(table.out().contains("uniform: uniform random, 64 vertices, degree 16"), table.out());
    assertTrue(table.out().contains("contender") && table.out().contains("serial") && table.out().contains("components: engine"),
        table.out());
    assertTrue(table.out().contains("engine (reference) on ") && table.out().contains(" workers, a level: push or pull "),
        table.out());
    assertEquals("uniform", Json.MAPPER.readTree(file.toFile()).get("graphs").get(0).get("graph").asText());
  }

  @Test
  void badOptionsAreRefusedWithAFix() {
    for (String[] option : new String[][] {{"--graphs", "road"}, {"--graphs", "grid,grid"}, {"--scale", "31"},
        {"--grid-side", "1"}, {"--sources", "0"}, {"--uniform-vertices", "1"}}) {
      CliRun run = CliRun.of("bench", "graph", option[0], option[1]);
      assertEquals(2, run.status(), run.err());
      assertTrue(run.err().startsWith("vyre: " + option[0] + ": ") && run.err().contains(". Fix: "), run.err());
    }
  }
}
