package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code vyre} command line as a whole: help on every command, usage errors, exit statuses. */
class VyreCommandTest {

  private static final List<List<String>> COMMANDS = List.of(List.of(), List.of("doctor"), List.of("run"),
      List.of("scan"), List.of("bench"), List.of("bench", "dispatch"), List.of("bench", "scan"), List.of("conform"),
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
}
