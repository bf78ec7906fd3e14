package dev.vyre.cli.conform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.VyreException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;

/**
 * The {@code vyre conform} loop: one JSON object per input line, one JSON line out per input, in
 * order, flushed as it goes. Bad input becomes an {@code InputError} object and the loop goes on.
 */
public final class ConformRunner {

  private final ConformRegistry registry;

  public ConformRunner(ConformRegistry registry) {
    this.registry = registry;
  }

  /** Processes every line of {@code in}; returns the number of lines answered. */
  public long run(BufferedReader in, PrintStream out) throws IOException {
    long answered = 0;
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) {
        continue;
      }
      out.println(answer(line));
      out.flush();
      answered++;
    }
    return answered;
  }

  /** The output line for one input line. */
  public String answer(String line) {
    try {
      return Json.MAPPER.writeValueAsString(result(line));
    } catch (VyreException e) {
      return write(Json.error(e));
    } catch (IOException | RuntimeException e) {
      // Not one of vyre's errors, so no Fix of its own: every message ends with one.
      ObjectNode error = Json.object();
      error.set("error", Json.inputError("conform: " + e.getMessage() + ". Fix: check the line's fields and their types"
          + " against those its fn takes"));
      return write(error);
    }
  }

  /**
   * What the line's fn returns for it.
   *
   * @throws VyreException for a line that is no request or a request its fn refuses; anything else
   *     is a bug, which {@link #answer} still turns into an error line
   */
  JsonNode result(String line) throws IOException {
    JsonNode input = Json.parseLine(line);
    if (input == null || !input.isObject()) {
      throw InputException.of("conform", "the line is not a JSON object", "write one JSON object per line");
    }
    String fn = Json.required(input, "fn").asText();
    ConformFunction function = registry.get(fn);
    if (function == null) {
      throw InputException.of("conform", "unknown fn \"" + fn + "\"", "use one of " + String.join(", ", registry.names()));
    }
    return function.apply(input);
  }

  private static String write(ObjectNode node) {
    try {
      return Json.MAPPER.writeValueAsString(node);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
