package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TerminalTest {

  @Test
  void terminalsAreTheDevicesAStandardStreamOfAShellPointsTo() {
    assertTrue(Terminal.isTerminalDevice("/dev/pts/3"));
    assertTrue(Terminal.isTerminalDevice("/dev/tty1"));
    assertFalse(Terminal.isTerminalDevice("pipe:[52431]"), "| less");
    assertFalse(Terminal.isTerminalDevice("/tmp/err.log"), "2> FILE");
    assertFalse(Terminal.isTerminalDevice("/dev/null"));
  }

  @Test
  void stderrIsNotATerminalUnderMaven() {
    assertFalse(Terminal.isTerminal(Terminal.STDERR), "surefire pipes the forked JVM's stderr");
  }
}
