package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.scan.NaiveMatcher;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanCorpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vyre bench scan} on a small corpus: figures for the reference backend and grep, and the corpus it kept. */
class ScanBenchCommandTest {

  @TempDir Path dir;

  @Test
  void measuresTheReferenceBackendAndGrepOnTheSameCorpus() throws IOException {
    Path json = dir.resolve("scan.json");
    Path corpusDir = dir.resolve("corpus");
    CliRun run = CliRun.of("bench", "scan", "--size", "300000", "--patterns", "12", "--backend", "reference",
        "--runs", "2", "--dir", corpusDir.toString(), "--json", json.toString());
    String text = run.out();
    assertEquals(0, run.status(), text + run.err());
    JsonNode results = Json.MAPPER.readTree(json.toFile());
    assertEquals(300000, results.get("corpus_bytes").asLong());
    assertTrue(results.get("reference_gb_per_s").asDouble() > 0, text);
    assertTrue(results.get("reference_io").asText().startsWith("io_uring")
        || results.get("reference_io").asText().startsWith("FileChannel"), text);
    byte[] corpus = Files.readAllBytes(corpusDir.resolve("corpus"));
    PatternSet patterns = PatternSet.fromFile(corpusDir.resolve("patterns"), false);
    assertEquals(ScanCorpus.literals(12, ScanCorpus.DEFAULT_SEED).size(), patterns.size());
    assertEquals(NaiveMatcher.findAll(patterns, corpus, 0).size(), results.get("reference_matches").asLong());
    if (results.has("grep_gb_per_s")) {
      assertTrue(results.get("reference_vs_grep").asDouble() > 0, text);
    }
    assertTrue(text.contains("reference run 2: "), text);
  }

  /** On the reference backend the devices are labels of the CPU: the figures and the agreement are still reported. */
  @Test
  void devicesAreMeasuredAloneAndTogether() throws IOException {
    Path json = dir.resolve("scan.json");
    CliRun run = CliRun.of("bench", "scan", "--size", "200000", "--patterns", "8", "--backend", "reference", "--runs", "1",
        "--no-grep", "--devices", "0,1", "--json", json.toString());
    assertEquals(0, run.status(), run.out() + run.err());
    JsonNode results = Json.MAPPER.readTree(json.toFile());
    for (String key : List.of("reference_device_0_gb_per_s", "reference_device_1_gb_per_s", "reference_devices_0,1_gb_per_s",
        "reference_devices_scaling_vs_best_one", "reference_devices_0,1_ingest_gb_per_s")) {
      assertTrue(results.get(key).asDouble() > 0, key + ": " + run.out());
    }
    assertTrue(results.get("reference_devices_matches_agree").asBoolean(), run.out());
    assertTrue(run.out().contains("host-to-device copies: none on the reference backend"), run.out());
  }

  @Test
  void badValuesAreRefusedBeforeTheCorpusIsWritten() {
    Path corpusDir = dir.resolve("corpus");
    for (String[] option : new String[][] {{"--size", "0"}, {"--size", "-1"}, {"--patterns", "0"}, {"--patterns", "-1"},
        {"--patterns", "1048577"}, {"--runs", "0"}, {"--runs", "-1"}}) {
      CliRun run = CliRun.of("bench", "scan", "--backend", "reference", "--dir", corpusDir.toString(), option[0], option[1]);
      assertEquals(2, run.status(), List.of(option) + ": " + run.out() + run.err());
      assertTrue(run.err().startsWith("vyre: " + option[0] + ": " + option[1] + " ") && run.err().contains(". Fix: "),
          run.err());
      assertEquals("", run.out());
      assertTrue(Files.notExists(corpusDir), "nothing written");
    }
  }

  @Test
  void aCorpusLargerThanTheDiskOrAnUnwritableResultIsRefusedBeforeTheRun() throws IOException {
    Path corpusDir = dir.resolve("corpus");
    CliRun huge = CliRun.of("bench", "scan", "--backend", "reference", "--dir", corpusDir.toString(), "--size",
        Long.toString(Long.MAX_VALUE / 2));
    assertEquals(2, huge.status(), huge.out() + huge.err());
    assertTrue(huge.err().startsWith("vyre: --size: ") && huge.err().contains("free") && huge.err().contains("Fix: "),
        huge.err());
    assertEquals("", huge.out());
    assertTrue(Files.notExists(corpusDir.resolve("corpus")), "nothing written");

    CliRun json = CliRun.of("bench", "scan", "--backend", "reference", "--size", "1000", "--json", dir.toString());
    assertEquals(2, json.status(), json.out() + json.err());
    assertTrue(json.err().startsWith("vyre: --json: " + dir + " cannot be written (is a directory). Fix: "), json.err());
    assertEquals("", json.out());

    Path file = Files.writeString(dir.resolve("file"), "x");
    CliRun notADirectory = CliRun.of("bench", "scan", "--backend", "reference", "--size", "1000", "--dir", file.toString());
    assertEquals(2, notADirectory.status(), notADirectory.out() + notADirectory.err());
    assertTrue(notADirectory.err().startsWith("vyre: --dir: " + file + " is not a directory. Fix: "), notADirectory.err());
  }
}
