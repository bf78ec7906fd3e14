package dev.vyre.cli.graph;

import dev.vyre.driver.error.InputException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a run's per-vertex values as {@code vertex<TAB>value} lines in vertex order. A graph may
 * have hundreds of millions of vertices, so the digits are formatted by hand into one buffer.
 */
final class VertexValues {

  private static final int BUFFER = 1 << 16;
  // The longest line: two ints of 11 characters (a sign and 10 digits), a tab and a newline.
  private static final int LINE = 24;

  private VertexValues() {}

  /** Writes {@code values} to {@code file}, replacing it. */
  static void write(Path file, int[] values) {
    try (OutputStream out = Files.newOutputStream(file)) {
      byte[] buffer = new byte[BUFFER];
      int at = 0;
      for (int v = 0; v < values.length; v++) {
        if (at > BUFFER - LINE) {
          out.write(buffer, 0, at);
          at = 0;
        }
        at = digits(buffer, at, v);
        buffer[at++] = '\t';
        at = digits(buffer, at, values[v]);
        buffer[at++] = '\n';
      }
      out.write(buffer, 0, at);
    } catch (IOException e) {
      throw InputException.of("--output", file + " cannot be written (" + e.getMessage() + ")",
          "pass a file in a directory you can write to, on a disk with room");
    }
  }

  /** Writes {@code value} in decimal at {@code at}; returns the index after it. */
  static int digits(byte[] buffer, int at, int value) {
    long rest = value;
    if (rest < 0) {
      buffer[at++] = '-';
      rest = -rest;
    }
    int end = at;
    long probe = rest;
    do {
      end++;
      probe /= 10;
    } while (probe > 0);
    for (int i = end - 1; i >= at; i--) {
      buffer[i] = (byte) ('0' + rest % 10);
      rest /= 10;
    }
    return end;
  }
}
