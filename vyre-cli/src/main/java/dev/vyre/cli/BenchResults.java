package dev.vyre.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.driver.error.InputException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** How every {@code vyre bench} command reports: a table of measures on stdout, the same as JSON with {@code --json}. */
final class BenchResults {

  private BenchResults() {}

  /** Prints one {@code key value} line per measure under a header; doubles with three decimals. */
  static void print(PrintStream out, Map<String, Object> results) {
    out.println();
    out.printf("%-34s %s%n", "measure", "result");
    out.printf("%-34s %s%n", "-".repeat(34), "-".repeat(24));
    results.forEach((key, value) -> out.printf("%-34s %s%n", key,
        value instanceof Double d ? String.format("%.3f", d) : String.valueOf(value)));
  }

  /** Writes the measures as one JSON object to {@code json}; nothing when it is null. */
  static void writeJson(Path json, Map<String, Object> results) throws IOException {
    if (json == null) {
      return;
    }
    ObjectNode node = Json.object();
    results.forEach(node::putPOJO);
    Files.writeString(json, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node));
  }

  /** Refuses {@code value} of {@code option} below {@code least}, naming {@code command}'s help. */
  static void atLeast(String command, String option, long value, long least) {
    if (value < least) {
      throw InputException.of(option, value + " is below " + least, "pass " + least + " or more (" + command + " --help)");
    }
  }
}
