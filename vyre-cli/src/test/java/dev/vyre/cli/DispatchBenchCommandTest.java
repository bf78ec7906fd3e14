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
    // The idle window splits the process's CPU into the runtime's threads and the rest.
    double vyreThreads = results.get("idle_vyre_threads_cpu_percent_of_one_core").asDouble();
    assertTrue(vyreThreads >= 0 && vyreThreads <= results.get("idle_host_cpu_percent_of_one_core").asDouble() + 1, text);
    assertTrue(results.get("idle_busiest_java_thread").asText().endsWith(" %"), text);
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

  @Test
  void valuesThatMeasureNothingAreRefusedBeforeTheRun() {
    for (String[] option : new String[][] {{"--tasks", "0"}, {"--tasks", "-5"}, {"--batch", "0"}, {"--batch", "-1"},
        {"--round-trips", "0"}, {"--runs", "0"}, {"--runs", "-3"}, {"--idle-seconds", "0"}, {"--idle-seconds", "-1"},
        {"--publishers", "-1"}, {"--batch", "65537"}}) {
      CliRun run = CliRun.of("bench", "dispatch", "--backend", "reference", option[0], option[1]);
      assertEquals(2, run.status(), List.of(option) + ": " + run.out() + run.err());
      assertTrue(run.err().startsWith("vyre: " + option[0] + ": " + option[1] + " ") && run.err().contains(". Fix: "),
          run.err());
      assertEquals("", run.out(), "nothing measured");
    }
  }

  @Test
  void outputFilesThatCannotBeWrittenAreRefusedBeforeTheRunNotAfterIt() {
    for (String option : new String[] {"--json", "--round-trip-log"}) {
      CliRun run = CliRun.of("bench", "dispatch", "--backend", "reference", option, dir.toString());
      assertEquals(2, run.status(), option + ": " + run.out() + run.err());
      assertEquals("vyre: " + option + ": " + dir + " cannot be written (is a directory). Fix: pass a file path in a"
          + " directory you can write to\n", run.err());
      assertEquals("", run.out(), "nothing measured");
      CliRun noDirectory = CliRun.of("bench", "dispatch", "--backend", "reference", option, dir.resolve("no/such.json").toString());
      assertEquals(2, noDirectory.status(), option + ": " + noDirectory.out() + noDirectory.err());
      assertTrue(noDirectory.err().contains("cannot be written"), noDirectory.err());
    }
  }
}
