package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.scan.NaiveMatcher;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanCorpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vyre bench resident} on the reference backend: the corpus it writes, in several files held
 * in several resources (the largest file split), is scanned resident with the same count every run,
 * equal to a scan of the page cache and to a naive search of the files.
 */
class ResidentBenchCommandTest {

  @TempDir Path dir;

  @Test
  void scansTheCorpusInDeviceMemoryAndCountsWhatTheFilesHold() throws IOException {
    CliRun run = CliRun.of("bench", "resident", "--backend", "reference", "--size", "1500000", "--files", "3",
        "--patterns", "20", "--segment", "262144", "--runs", "2", "--dir", dir.toString());
    String text = run.out();
    assertEquals(0, run.status(), text + run.err());
    assertTrue(text.contains("loaded: 3 file(s), 1500000 bytes"), text);
    assertTrue(text.contains("resident scan 2, interpreted: "), text);
    assertTrue(text.contains("promotion not measured: the reference backend has no faster promoted DFA_STEP"), text);
    Matcher counted = Pattern.compile("matches (\\d+), equal").matcher(text);
    assertTrue(counted.find(), text);
    PatternSet patterns = PatternSet.fromArguments(ScanCorpus.literals(20, ScanCorpus.DEFAULT_SEED), false);
    long expected = 0;
    try (Stream<Path> files = Files.list(dir.resolve("corpus"))) {
      for (Path file : files.toList()) {
        expected += NaiveMatcher.findAll(patterns, Files.readAllBytes(file), 0).size();
      }
    }
    assertTrue(expected > 0);
    assertEquals(expected, Long.parseLong(counted.group(1)), text);
  }
}
