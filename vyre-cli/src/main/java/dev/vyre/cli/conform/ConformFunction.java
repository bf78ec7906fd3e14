package dev.vyre.cli.conform;

import com.fasterxml.jackson.databind.JsonNode;

/** One function of {@code vyre conform}: a JSON input object in, a JSON result object out. */
@FunctionalInterface
public interface ConformFunction {

  /**
   * Computes the result for one input line. Throw a {@link dev.vyre.driver.error.VyreException}
   * for the function's own errors (they become {@code {"error":{...}}}) and
   * {@link dev.vyre.driver.error.InputException} for malformed input.
   */
  JsonNode apply(JsonNode input);
}
