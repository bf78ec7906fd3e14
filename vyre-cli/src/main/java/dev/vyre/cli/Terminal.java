package dev.vyre.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether one standard stream of this process is a terminal. Java cannot tell: {@code
 * System.console().isTerminal()} asks about stdin and stdout together, so a scan redirected to a
 * file showed no progress and one whose stderr went to a log wrote its progress there.
 */
final class Terminal {

  static final int STDIN = 0;
  static final int STDOUT = 1;
  static final int STDERR = 2;

  private Terminal() {}

  /** Reads where the descriptor points (Linux {@code /proc}); false wherever that cannot be read. */
  static boolean isTerminal(int fd) {
    try {
      return isTerminalDevice(Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString());
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  static boolean isTerminalDevice(String target) {
    return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
  }
}
