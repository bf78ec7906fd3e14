package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.io.IoBackends;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vyre bench io} on the reference backend, small: its figures, the file it keeps, and the options it refuses. */
class IoBenchCommandTest {

  @TempDir Path dir;

  @Test
  void measuresHostReadsLoadRoundTripsAndLoadThroughputOnTheSameFile() throws IOException {
    Path json = dir.resolve("io.json");
    Path kept = dir.resolve("kept");
    CliRun run = CliRun.of("bench", "io", "--backend", "reference", "--size", "1048576", "--round-trips", "200", "--runs", "1",
        "--dir", kept.toString(), "--json", json.toString());
    String text = run.out();
    assertEquals(0, run.status(), text + run.err());
    JsonNode results = Json.MAPPER.readTree(json.toFile());
    assertEquals("reference", results.get("backend").asText());
    assertTrue(results.get("device").asText().startsWith("reference"), text);
    assertEquals(1048576, results.get("size").asLong());
    assertEquals(65536, results.get("bytes").asLong());
    for (String key : List.of("io_host_read_4k_p50_us", "io_host_read_4k_p99_us", "io_host_read_gb_per_s",
        "io_load_4k_round_trip_p50_us", "io_load_4k_round_trip_p99_us", "io_load_4k_round_trip_min_us", "io_load_gb_per_s",
        "io_load_best_gb_per_s", "in_flight")) {
      assertTrue(results.has(key) && results.get(key).asDouble() > 0, key + ": " + text);
    }
    assertTrue(results.get("io_load_4k_round_trip_p99_us").asDouble() >= results.get("io_load_4k_round_trip_p50_us").asDouble());
    assertEquals(64, results.get("in_flight").asInt(), text);
    // 240 round trips (a fifth untimed), then 16 loads of 64 KiB in each of two runs (warm-up and timed).
    assertEquals(240 + 2 * 16, results.get("io_pump_completed").asLong(), text);
    assertTrue(text.contains("load run 1: ") && text.contains("io_load_gb_per_s"), text);
    String reader = IoBackends.availability().available() ? "io_uring" : "FileChannel";
    assertTrue(results.get("io_pump_reader").asText().startsWith(reader), text);
    assertTrue(text.contains(" thread(s), " + reader), "the pump's path is printed: " + text);
    assertFalse(results.get("cold").asBoolean());
    assertEquals(1048576, Files.size(kept.resolve("io-bench.bin")), "--dir keeps the file");
  }

  @Test
  void aSmallerInFlightIsKeptAndTheLastLoadMayBeShort() throws IOException {
    Path json = dir.resolve("io.json");
    CliRun run = CliRun.of("bench", "io", "--backend", "reference", "--size", "300000", "--bytes", "65536", "--in-flight", "3",
        "--round-trips", "50", "--runs", "2", "--json", json.toString());
    assertEquals(0, run.status(), run.out() + run.err());
    JsonNode results = Json.MAPPER.readTree(json.toFile());
    assertEquals(3, results.get("in_flight").asInt());
    // 60 round trips, then 5 loads (the last of 37,856 bytes) in each of three runs.
    assertEquals(60 + 3 * 5, results.get("io_pump_completed").asLong(), run.out());
  }

  /** --cold drops the file's pages before each pass; --pump-reads FILE_CHANNEL takes the pump off io_uring, and says so. */
  @Test
  void coldPassesOnThePumpsFileChannelPath() throws IOException {
    Path json = dir.resolve("io.json");
    CliRun run = CliRun.of("bench", "io", "--backend", "reference", "--size", "1048576", "--round-trips", "100", "--runs", "1",
        "--cold", "--pump-reads", "FILE_CHANNEL", "--json", json.toString());
    assertEquals(0, run.status(), run.out() + run.err());
    JsonNode results = Json.MAPPER.readTree(json.toFile());
    assertTrue(results.get("cold").asBoolean());
    assertEquals("FileChannel", results.get("io_pump_reader").asText());
    assertTrue(run.out().contains("--cold: the file's pages are dropped") && run.out().contains(" thread(s), FileChannel"),
        run.out());
    assertEquals(120 + 2 * 16, results.get("io_pump_completed").asLong(), run.out());
  }

  @Test
  void valuesThatMeasureNothingAreRefusedBeforeTheFileIsWritten() {
    Path kept = dir.resolve("kept");
    for (String[] option : new String[][] {{"--bytes", "0"}, {"--bytes", "-1"}, {"--size", "0"}, {"--size", "4095"},
        {"--round-trips", "0"}, {"--in-flight", "0"}, {"--in-flight", "1025"}, {"--runs", "0"}, {"--bytes", "2000000"}}) {
      // A small file, unless the option tried is --size itself.
      List<String> args = new ArrayList<>(List.of("bench", "io", "--backend", "reference", "--dir", kept.toString()));
      if (!option[0].equals("--size")) {
        args.addAll(List.of("--size", "1048576"));
      }
      args.addAll(List.of(option));
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertEquals(2, run.status(), List.of(option) + ": " + run.out() + run.err());
      assertTrue(run.err().startsWith("vyre: " + option[0] + ": " + option[1] + " ") && run.err().contains(". Fix: "),
          run.err());
      assertEquals("", run.out(), "nothing measured");
      assertTrue(Files.notExists(kept), "nothing written");
    }
  }

  @Test
  void aFileLargerThanTheDiskOrAnUnwritableResultIsRefusedBeforeTheRun() {
    Path kept = dir.resolve("kept");
    CliRun huge = CliRun.of("bench", "io", "--backend", "reference", "--dir", kept.toString(), "--size",
        Long.toString(Long.MAX_VALUE / 2));
    assertEquals(2, huge.status(), huge.out() + huge.err());
    assertTrue(huge.err().startsWith("vyre: --size: ") && huge.err().contains("free") && huge.err().contains("Fix: "),
        huge.err());
    assertEquals("", huge.out());
    assertTrue(Files.notExists(kept.resolve("io-bench.bin")), "nothing written");

    CliRun json = CliRun.of("bench", "io", "--backend", "reference", "--size", "1048576", "--json", dir.toString());
    assertEquals(2, json.status(), json.out() + json.err());
    assertTrue(json.err().startsWith("vyre: --json: " + dir + " cannot be written (is a directory). Fix: "), json.err());
    assertEquals("", json.out());
  }
}
