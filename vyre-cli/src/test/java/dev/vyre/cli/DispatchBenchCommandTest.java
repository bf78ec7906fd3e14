package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vyre bench dispatch} on the reference backend, small: its figures and its round-trip log. */
class DispatchBenchCommandTest {

  @TempDir Path dir;

  @Test
  void measuresRoundTripsAndThroughputAndLogsEveryRoundTripInOrder() throws IOException {
    Path json = dir.resolve("dispatch.json");
    Path log = dir.resolve("round-trips.txt");
    CliRun run = CliRun.of("bench", "dispatch", "--backend", "reference", "--tasks", "20000", "--round-trips", "1000",
        "--runs", "1", "--idle-seconds", "1", "--json", json.toString(), "--round-trip-log", log.toString());
    String text = run.out();
    assertEquals(0, run.status(), text + run.err());
    JsonNode results = Json.MAPPER.readTree(json.toFile());
    double p50 = results.get("round_trip_p50_us").asDouble();
    assertTrue(p50 > 0 && results.get("round_trip_p99_us").asDouble() >= p50, text);
    assertEquals(20000, results.get("throughput_tasks").asLong(), text);
    List<String> lines = Files.readAllLines(log);
    assertEquals("# round trip ns, of which publish ns", lines.getFirst());
    assertEquals(1001, lines.size(), "a header, then one line per measured round trip");
    for (String line : lines.subList(1, lines.size())) {
      String[] fields = line.split(" ");
      long total = Long.parseLong(fields[0]);
      long publish = Long.parseLong(fields[1]);
      assertTrue(publish >= 0 && publish <= total, line);
    }
  }
}
