package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.bench.TreeBench;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vyre bench tree} on a small generated tree: identifiers drawn, every contender agrees and is timed. */
class TreeBenchCommandTest {

  @TempDir Path dir;

  @Test
  void identifiersAreTheTreesOwnMostFrequentFirstAndDrawnEvenly() throws IOException {
    Path tree = Files.createDirectories(dir.resolve("t"));
    Files.writeString(tree.resolve("a.java"), "String counter = 9counter2; counter_x String String é_length short");
    List<String> identifiers = TreeBench.identifiers(tree);
    // As [A-Za-z_][A-Za-z0-9_]{5,} finds them: "counter2" from the 'c' after the digit, "_length" after
    // the two bytes of é; "short" is too short.
    assertEquals(List.of("String", "_length", "counter", "counter2", "counter_x"), identifiers);
    assertEquals(List.of("String", "counter"), TreeBench.draw(identifiers, 2));
    assertEquals(identifiers, TreeBench.draw(identifiers, 100));
  }

  @Test
  void everyContenderListsTheSameFilesAndIsTimed() throws IOException {
    Path tree = Files.createDirectories(dir.resolve("src/pkg"));
    for (int f = 0; f < 30; f++) {
      Files.writeString(tree.resolve("F" + f + ".java"), "class F" + f + " { String value" + f % 7
          + " = \"constant\"; int counter; }\n".repeat(1 + f % 5));
    }
    Path json = dir.resolve("tree.json");
    CliRun run = CliRun.of("bench", "tree", "--backend", "reference", "--runs", "1", "--literals", "3,8", "--json",
        json.toString(), dir.resolve("src").toString());
    assertEquals(0, run.status(), run.out() + run.err());
    assertTrue(run.out().contains("vyre one-shot"), run.out());
    assertTrue(run.out().contains("vyre through serve"), run.out());
    assertFalse(run.out().contains("DIFFERS"), run.out());
    // The served row counts only when the service served every scan of it, and the bench says on which kernel.
    assertFalse(run.out().contains("NOT SERVED"), run.out());
    assertTrue(run.out().contains("vyre bench tree: the service's kernel: reference: "), run.out());
    String results = Files.readString(json);
    assertTrue(results.contains("\"3_vyre_oneshot_seconds\"") && results.contains("\"8_vyre_through_serve_agrees\" : true")
        && results.contains("\"8_vyre_through_serve_seconds\""),
        results);
  }
}
