package dev.vyre.cli.conform;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.vyre.driver.error.VyreException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzzing of {@code vyre conform}'s standard input: each line is read as a request
 * and run by its fn, and only a typed error with a fix may come out of either. {@link
 * ConformRunner#answer} would turn any other exception into an error line, which hides it.
 */
class ConformFuzzTest {

  private static final ConformRunner RUNNER = new ConformRunner(ConformRegistry.loadAll());

  @Timeout(10)
  @FuzzTest
  void answer(byte[] stdin) throws IOException {
    // As vyre conform reads stdin: UTF-8 with malformed bytes replaced, one request a line.
    List<String> lines = new String(stdin, StandardCharsets.UTF_8).lines().filter(line -> !line.isBlank()).toList();
    for (String line : lines) {
      try {
        Json.MAPPER.writeValueAsString(RUNNER.result(line));
      } catch (VyreException e) {
        assertTrue(e.getMessage().contains("Fix: "), e::getMessage);
      }
    }
  }
}
