package dev.vyre.graph;

import dev.vyre.driver.error.InputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a graph from a plain edge list, the format of SNAP and of GAP's {@code .el} files: one edge
 * {@code src dst} a line, separated by spaces or tabs, with 0-based ids; {@code #} starts a comment
 * that runs to the end of the line, and blank lines are skipped. The graph has {@code max id + 1}
 * vertices. The file is streamed a line at a time.
 */
public final class EdgeListReader {

  // Ids are ints, and the vertex count (max id + 1) must be one too.
  private static final long MAX_ID = Integer.MAX_VALUE - 1L;

  private EdgeListReader() {}

  /**
   * Reads {@code file} as a directed graph: each line {@code u v} is the arc {@code u -> v}.
   *
   * @param file an edge-list file
   * @return the graph, which the caller must close
   * @throws InputException naming the file and line of the first problem
   */
  public static CsrGraph read(Path file) {
    return read(file, false);
  }

  /**
   * Reads {@code file} as a graph.
   *
   * @param file an edge-list file
   * @param undirected whether each line {@code u v} stands for both directions (the graph is
   *     symmetrized)
   * @return the graph, which the caller must close
   * @throws InputException naming the file and line of the first problem
   */
  public static CsrGraph read(Path file, boolean undirected) {
    String source = file.toString();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1);
        EdgeList edges = EdgeList.create()) {
      Fields fields = new Fields(2);
      long lineNo = 0;
      long maxId = -1;
      String line;
      while ((line = in.readLine()) != null) {
        lineNo++;
        int hash = line.indexOf('#');
        int count = fields.split(line, hash < 0 ? line.length() : hash);
        if (count == 0) {
          continue;
        }
        if (count != 2) {
          throw InputException.at(source, lineNo, "the line has " + count + " fields, not 2 (src dst)",
              "write one edge a line as two vertex ids, and start comments with #");
        }
        long u = fields.natural(0, MAX_ID);
        long v = fields.natural(1, MAX_ID);
        if (u < 0 || v < 0) {
          String bad = u < 0 ? fields.text(0) : fields.text(1);
          throw InputException.at(source, lineNo, "the vertex id '" + bad + "' is not an integer from 0 to " + MAX_ID,
              "write ids as 0-based decimal integers");
        }
        maxId = Math.max(maxId, Math.max(u, v));
        edges.add((int) u, (int) v);
      }
      return CsrGraph.build(edges, (int) (maxId + 1), undirected);
    } catch (IOException e) {
      throw InputException.of(source, "cannot read the file (" + e + ")", "check that the path names a readable file");
    }
  }
}
