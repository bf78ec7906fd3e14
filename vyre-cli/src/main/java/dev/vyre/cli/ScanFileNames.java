package dev.vyre.cli;

import dev.vyre.io.PathBytes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * How {@code vyre scan} names a file in its output: its path's bytes, or grep's
 * {@code (standard input)} for the file that holds stdin; followed by ':' or, with {@code -Z}, a NUL.
 *
 * @param shown matches and counts start with the name ({@code -H}, the default), or not ({@code -h})
 * @param nullAfter a NUL follows the name instead of ':' (and instead of the newline after a listed name)
 * @param standardInput the file stdin was read into, named {@code (standard input)}; null when none
 */
record ScanFileNames(boolean shown, boolean nullAfter, Path standardInput) {

  /** grep's name for standard input. */
  static final String STANDARD_INPUT = "(standard input)";

  /** Every name shown, ':' after it, no stdin. */
  static final ScanFileNames DEFAULT = new ScanFileNames(true, false, null);

  /** The name as printed: the path's own bytes, or {@code (standard input)}. */
  byte[] bytes(Path path) {
    return path.equals(standardInput) ? STANDARD_INPUT.getBytes(StandardCharsets.US_ASCII) : PathBytes.of(path);
  }

  /** The name in messages on stderr. */
  Object text(Path path) {
    return path.equals(standardInput) ? STANDARD_INPUT : path;
  }

  /** What starts a match's or a count's line: the name and its separator, or nothing with -h. */
  byte[] prefix(Path path) {
    if (!shown) {
      return new byte[0];
    }
    byte[] name = bytes(path);
    byte[] prefix = java.util.Arrays.copyOf(name, name.length + 1);
    prefix[name.length] = nullAfter ? 0 : (byte) ':';
    return prefix;
  }

  /** A listed name (-l, -L) and what ends it: a newline, or with -Z a NUL. */
  byte[] listed(Path path) {
    byte[] name = bytes(path);
    byte[] line = java.util.Arrays.copyOf(name, name.length + 1);
    line[name.length] = nullAfter ? 0 : (byte) '\n';
    return line;
  }
}
