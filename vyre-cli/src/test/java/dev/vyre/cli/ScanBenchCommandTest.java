package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.runtime.scan.NaiveMatcher;
import dev.vyre.runtime.scan.PatternSet;
import dev.vyre.runtime.scan.ScanCorpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
