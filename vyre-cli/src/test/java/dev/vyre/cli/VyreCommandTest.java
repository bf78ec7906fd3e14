package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Backends;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The {@code vyre} command line as a whole: help on every command, usage errors, exit statuses. */
class VyreCommandTest {

  private static final List<List<String>> COMMANDS = List.of(List.of(), List.of("doctor"), List.of("run"),
      List.of("scan"), List.of("bench"), List.of("bench", "dispatch"), List.of("bench", "scan"), List.of("bench", "graph"),
      List.of("graph"), List.of("graph", "bfs"), List.of("graph", "cc"), List.of("graph", "gen"),
      List.of("graph", "gen", "kron"), List.of("graph", "gen", "grid"), List.of("graph", "gen", "uniform"), List.of("conform"),
      List.of("plan"), List.of("plan", "barriers"), List.of("policy"), List.of("policy", "recommend"),
      List.of("telemetry"), List.of("telemetry", "decode"), List.of("replay"));

  @Test
  void everyCommandHasHelp() {
    for (List<String> command : COMMANDS) {
      String[] args = new String[command.size() + 1];
      command.toArray(args);
      args[command.size()] = "--help";
      CliRun run = CliRun.of(args);
      assertEquals(0, run.status(), command + ": " + run.err());
      assertTrue(run.out().startsWith("Usage: " + String.join(" ", List.of("vyre", String.join(" ", command))).strip()),
          command + ": " + run.out());
    }
  }

  @Test
  void everyCommandThatTakesVersionPrintsIt() {
    String version = CliRun.of("--version").out();
    List<String> lines = version.lines().toList();
    assertEquals(3, lines.size(), version);
    // The version and commit come from the build; the commit is "unknown" for a build outside a git checkout.
    assertTrue(lines.get(0).matches("vyre \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(commit ([0-9a-f]{7,40}|unknown)\\)"),
        lines.get(0));
    assertEquals("jdk " + Runtime.version() + " (" + System.getProperty("java.vm.vendor") + ")", lines.get(1));
    assertTrue(lines.get(2).matches("usable backends: ([a-z]+(, [a-z]+)*|none .*)"), lines.get(2));
    assertTrue(lines.get(2).contains("reference"), "the reference backend is always usable: " + lines.get(2));
    for (List<String> command : COMMANDS.subList(1, 3)) {
      String[] args = new String[command.size() + 1];
      command.toArray(args);
      args[command.size()] = "--version";
      CliRun run = CliRun.of(args);
      assertEquals(0, run.status(), command + ": " + run.err());
      assertEquals(version, run.out(), command.toString());
    }
    assertEquals(version, CliRun.of("plan", "barriers", "-V").out());
  }

  @Test
  void helpIsACommandToo() {
    CliRun help = CliRun.of("help");
    assertEquals(0, help.status(), help.err());
    assertEquals(CliRun.of("--help").out(), help.out());
    assertTrue(help.out().matches("(?s).*\n  help +Display help information about the specified command\\..*"), help.out());
    CliRun scan = CliRun.of("help", "scan");
    assertEquals(0, scan.status(), scan.err());
    assertEquals(CliRun.of("scan", "--help").out(), scan.out());
    CliRun unknown = CliRun.of("help", "scna");
    assertEquals(2, unknown.status());
    assertTrue(unknown.err().contains("Fix: "), unknown.err());
  }

  @Test
  void noMessageNamesVyreTwice() {
    for (String[] args : new String[][] {{"scan"}, {"scan", "--backend", "bogus", "x"}, {"run", "/nonexistent"},
        {"bench", "dispatch", "--tasks", "0"}, {"conform", "--bogus"}}) {
      CliRun run = CliRun.of(args);
      assertEquals(2, run.status(), List.of(args) + ": " + run.err());
      assertTrue(run.err().matches("vyre( [a-z]+)*: .*Fix: .*\\n"), run.err());
      assertFalse(run.err().matches("(?s)vyre( [a-z]+)*: vyre.*"), run.err());
    }
  }

  @Test
  void usageErrorsSayWhatIsWrongAndHowToFixItWithoutTheWholeHelp() {
    CliRun unknownCommand = CliRun.of("scna");
    assertEquals(2, unknownCommand.status());
    assertTrue(unknownCommand.err().startsWith("vyre: Unmatched argument at index 0: 'scna'. Fix: "), unknownCommand.err());
    assertTrue(unknownCommand.err().contains("Did you mean"), unknownCommand.err());
    CliRun badNumber = CliRun.of("bench", "dispatch", "--tasks", "many");
    assertEquals(2, badNumber.status());
    assertEquals("vyre bench dispatch: Invalid value for option '--tasks': 'many' is not a long. Fix: run `vyre bench dispatch"
        + " --help` for the usage\n", badNumber.err());
    CliRun missing = CliRun.of("replay");
    assertEquals(2, missing.status());
    assertTrue(missing.err().startsWith("vyre replay: Missing required parameter: 'FILE'. Fix: "), missing.err());
    assertEquals("", badNumber.out() + missing.out());
  }

  @Test
  void anUnexpectedFailureIsOneLineWithAFixNotAStackTrace() {
    InputStream directory = new InputStream() {
      @Override
      public int read() throws IOException {
        throw new IOException("Is a directory");
      }
    };
    CliRun run = CliRun.withStdin(directory, "conform");
    assertEquals(2, run.status());
    assertTrue(run.err().startsWith("vyre conform: Is a directory. Fix: "), run.err());
    assertEquals(1, run.err().lines().count(), run.err());
  }

  @Test
  void helpDocumentsTheExitStatuses() {
    String help = CliRun.of("--help").out();
    assertTrue(help.contains("Exit status:"), help);
    assertTrue(help.contains("2     An error: a usage error"), help);
    assertTrue(CliRun.of("run", "--help").out().contains("1   A task did not finish DONE"), "vyre run --help");
    assertTrue(CliRun.of("doctor", "--help").out().contains("1   No backend is usable"), "vyre doctor --help");
  }

  @Test
  void outputThatCannotBeWrittenIsAnError() {
    for (String[] args : new String[][] {{"doctor"}, {"--help"}, {"conform", "--list"}, {"replay", "--help"}}) {
      CliRun run = CliRun.withStdout(new CliRun.FailingOutput("No space left on device"), args);
      assertEquals(2, run.status(), List.of(args) + ": " + run.err());
      assertEquals("vyre: standard output: write failed (a full disk or a closed pipe). Fix: write the output where it"
          + " fits, e.g. > FILE on a disk with room\n", run.err(), List.of(args).toString());
    }
  }

  @Test
  void anUnusableBackendIsOneProblemWithOneFix() {
    Assumptions.assumeFalse(Backends.all().stream().anyMatch(b -> b.name().equals("cuda") && b.availability().usable()),
        "CUDA is usable here");
    CliRun run = CliRun.of("scan", "--backend", "cuda", "-e", "x", ".");
    assertEquals(2, run.status());
    assertTrue(run.err().startsWith("vyre: --backend: backend cuda is unusable here: "), run.err());
    assertEquals(1, run.err().split("Fix: ", -1).length - 1, run.err());
    assertTrue(run.err().strip().endsWith("or run `vyre doctor` for details, or use --backend reference"), run.err());
  }

  /** An Error (which picocli does not hand to the exception handler) exits 2 with one line and a Fix, never 1. */
  @Test
  void anErrorExitsTwoWithAFix() {
    StringWriter oom = new StringWriter();
    assertEquals(2, VyreCommand.fatal(new OutOfMemoryError("Java heap space"), new PrintWriter(oom)));
    assertEquals("vyre: out of memory (Java heap space). Fix: give the JVM a larger heap, e.g. JAVA_TOOL_OPTIONS=-Xmx8g,"
        + " or a smaller job", oom.toString().strip());
    StringWriter other = new StringWriter();
    assertEquals(2, VyreCommand.fatal(new StackOverflowError(), new PrintWriter(other)));
    assertTrue(other.toString().startsWith("vyre: unexpected error: java.lang.StackOverflowError. Fix: this is a bug"),
        other.toString());
  }
}
