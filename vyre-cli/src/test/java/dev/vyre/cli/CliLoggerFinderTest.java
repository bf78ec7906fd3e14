package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The libraries' log lines on the command line: their warnings on stderr as vyre's own messages. */
class CliLoggerFinderTest {

  private static String stderrOf(Runnable body) {
    PrintStream saved = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      body.run();
    } finally {
      System.setErr(saved);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }

  @Test
  void theVyreJarProvidesTheLoggerFinder() {
    assertInstanceOf(CliLoggerFinder.class, System.LoggerFinder.getLoggerFinder());
  }

  @Test
  void warningsPrintAsVyreMessagesAndInfoOnlyWhenVerbose() {
    // A logger made before stderr is replaced still writes to the stderr of the moment.
    System.Logger cache = System.getLogger("dev.vyre.cuda.PipelineCache");
    System.Logger other = System.getLogger("org.example.Thing");
    String err = stderrOf(() -> {
      cache.log(System.Logger.Level.WARNING, "pipeline cache entry k is truncated or corrupt; recompiling it");
      cache.log(System.Logger.Level.INFO, "not shown");
      other.log(System.Logger.Level.ERROR, "failed {0} times", 3);
    });
    assertEquals("vyre: pipeline cache entry k is truncated or corrupt; recompiling it\n"
        + "vyre: org.example.Thing: failed 3 times\n", err);
    try {
      CliLoggerFinder.verbose(true);
      assertEquals("vyre: shown\n", stderrOf(() -> cache.log(System.Logger.Level.INFO, "shown")));
      assertEquals("", stderrOf(() -> cache.log(System.Logger.Level.DEBUG, "still not")));
    } finally {
      CliLoggerFinder.verbose(false);
    }
  }

  @Test
  void verboseTurnsOnInfoForOneCommandOnly() {
    System.Logger logger = System.getLogger("dev.vyre.test");
    CliRun.of("scan", "--verbose", "--help");
    assertEquals("", stderrOf(() -> logger.log(System.Logger.Level.INFO, "after --help")));
  }
}
