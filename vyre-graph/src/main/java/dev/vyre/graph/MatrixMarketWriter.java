package dev.vyre.graph;

import dev.vyre.driver.error.InputException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a graph as a Matrix Market {@code coordinate pattern} file that {@link MatrixMarketReader}
 * (and SuiteSparse tools) read back to the same graph. An undirected graph is written
 * {@code symmetric}, each edge once as its lower-triangle entry {@code (max + 1, min + 1)}; a directed
 * one {@code general}, every arc {@code (source + 1, target + 1)}. Entries come in vertex order.
 */
public final class MatrixMarketWriter {

  private MatrixMarketWriter() {}

  /**
   * Writes {@code graph} to {@code file}, replacing it if it exists.
   *
   * @param graph the graph
   * @param file where to write
   * @throws InputException if the file cannot be written
   */
  public static void write(CsrGraph graph, Path file) {
    boolean symmetric = graph.undirected();
    int n = graph.vertexCount();
    long entries = graph.inputEdgeCount();
    try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(file),
        StandardCharsets.US_ASCII), 1 << 16)) {
      out.write("%%MatrixMarket matrix coordinate pattern " + (symmetric ? "symmetric" : "general") + "\n");
      out.write("% written by vyre-graph\n");
      out.write(n + " " + n + " " + entries + "\n");
      StringBuilder line = new StringBuilder(24);
      for (int v = 0; v < n; v++) {
        for (long e = graph.rowStart(v), end = graph.rowEnd(v); e < end; e++) {
          int u = graph.column(e);
          // Neighbours are ascending, so for a symmetric file the lower triangle is a prefix.
          if (symmetric && u > v) {
            break;
          }
          line.setLength(0);
          line.append(v + 1).append(' ').append(u + 1L).append('\n');
          out.append(line);
        }
      }
    } catch (IOException e) {
      throw InputException.of(file.toString(), "cannot write the file (" + e + ")",
          "check that the directory exists and is writable, and that the disk has room");
    }
  }
}
