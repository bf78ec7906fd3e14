package dev.vyre.graph;

import dev.vyre.driver.error.InputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads a graph from a Matrix Market coordinate file, the format of the SuiteSparse Matrix
 * Collection: a header {@code %%MatrixMarket matrix coordinate pattern|integer|real
 * general|symmetric}, {@code %} comment lines, a size line {@code rows cols nnz}, then {@code nnz}
 * entries {@code i j [value]} with 1-based ids.
 *
 * <p>Entry {@code (i, j)} becomes the arc {@code i-1 -> j-1}; values are checked to be numbers and
 * then ignored. {@code symmetric} files give an undirected graph, {@code general} ones a directed
 * graph. The graph has {@code max(rows, cols)} vertices, so a rectangular matrix reads as a graph
 * whose extra vertices have no edges on one side. The file is streamed a line at a time; the edges
 * are held off-heap until the graph is built.
 *
 * <p>Not read (each a typed error): {@code array} (dense) files, {@code complex} values, and the
 * {@code skew-symmetric} and {@code hermitian} symmetries.
 */
public final class MatrixMarketReader {

  private static final String BANNER = "%%MatrixMarket";
  private static final String HEADER_FIX = "start the file with a header such as '%%MatrixMarket matrix coordinate "
      + "pattern general'";

  private MatrixMarketReader() {}

  /**
   * Reads {@code file} into a graph.
   *
   * @param file a Matrix Market coordinate file
   * @return the graph, which the caller must close
   * @throws InputException naming the file and line of the first problem, if the file cannot be read
   *     or is not a coordinate file of a supported kind
   */
  public static CsrGraph read(Path file) {
    String source = file.toString();
    // Latin-1 decodes every byte, so a stray non-ASCII byte is reported as a bad field, by line.
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1);
        EdgeList edges = EdgeList.create()) {
      return parse(source, in, edges);
    } catch (IOException e) {
      throw InputException.of(source, "cannot read the file (" + e + ")", "check that the path names a readable file");
    }
  }

  private static CsrGraph parse(String source, BufferedReader in, EdgeList edges) throws IOException {
    Fields fields = new Fields(5);
    // Header.
    String line = in.readLine();
    long lineNo = 1;
    if (line == null) {
      throw InputException.at(source, lineNo, "the file is empty, with no Matrix Market header", HEADER_FIX);
    }
    int count = fields.split(line, line.length());
    if (count == 0 || !fields.text(0).equalsIgnoreCase(BANNER)) {
      throw InputException.at(source, lineNo, "the first line is not a Matrix Market header (it does not start with "
          + BANNER + ")", HEADER_FIX);
    }
    if (count != 5) {
      throw InputException.at(source, lineNo, "the header has " + count + " fields, not 5", HEADER_FIX);
    }
    String object = fields.text(1).toLowerCase(Locale.ROOT);
    String format = fields.text(2).toLowerCase(Locale.ROOT);
    String field = fields.text(3).toLowerCase(Locale.ROOT);
    String symmetry = fields.text(4).toLowerCase(Locale.ROOT);
    if (!object.equals("matrix")) {
      throw InputException.at(source, lineNo, "the object is '" + fields.text(1) + "', not 'matrix'", HEADER_FIX);
    }
    if (!format.equals("coordinate")) {
      throw InputException.at(source, lineNo, "the format is '" + fields.text(2) + "'; only 'coordinate' (sparse) "
          + "files are read", "convert the matrix to coordinate format (for example with scipy.io.mmwrite of a sparse "
          + "matrix)");
    }
    int valueFields = switch (field) {
      case "pattern" -> 0;
      case "integer", "real" -> 1;
      default -> throw InputException.at(source, lineNo, "the field is '" + fields.text(3) + "'; only pattern, "
          + "integer and real are read", "convert the values to real, or drop them and write a pattern file");
    };
    boolean symmetric = switch (symmetry) {
      case "general" -> false;
      case "symmetric" -> true;
      default -> throw InputException.at(source, lineNo, "the symmetry is '" + fields.text(4) + "'; only general and "
          + "symmetric are read", "write the matrix as general, with both entries of each pair");
    };
    // Comments, then the size line.
    long rows;
    long cols;
    long nnz;
    while (true) {
      line = in.readLine();
      lineNo++;
      if (line == null) {
        throw InputException.at(source, lineNo, "the file ends before the size line", "add a line 'rows cols entries' "
            + "after the header and comments");
      }
      if (!line.startsWith("%") && fields.split(line, line.length()) > 0) {
        break;
      }
    }
    count = fields.split(line, line.length());
    if (count != 3) {
      throw InputException.at(source, lineNo, "the size line has " + count + " fields, not 3 (rows cols entries)",
          "write the size line as three non-negative integers");
    }
    rows = fields.natural(0, Integer.MAX_VALUE);
    cols = fields.natural(1, Integer.MAX_VALUE);
    nnz = fields.natural(2, Long.MAX_VALUE / 4);
    if (rows < 0 || cols < 0 || nnz < 0) {
      throw InputException.at(source, lineNo, "the size line '" + line.strip() + "' is not three non-negative integers "
          + "(rows and cols at most " + Integer.MAX_VALUE + ")", "write the size line as 'rows cols entries'");
    }
    if (symmetric && rows != cols) {
      throw InputException.at(source, lineNo, "a symmetric matrix is " + rows + " x " + cols + ", not square",
          "fix the size line, or write the matrix as general");
    }
    // Entries.
    int expected = 2 + valueFields;
    String shape = valueFields == 0 ? "'i j'" : "'i j value'";
    long entries = 0;
    while ((line = in.readLine()) != null) {
      lineNo++;
      count = fields.split(line, line.length());
      if (count == 0 || line.startsWith("%")) {
        continue;
      }
      if (entries == nnz) {
        throw InputException.at(source, lineNo, "there are more entries than the " + nnz + " the size line promises",
            "raise the size line's entry count, or remove the extra lines");
      }
      if (count != expected) {
        throw InputException.at(source, lineNo, "an entry has " + count + " fields, not " + expected + " (" + shape
            + " for a " + field + " file)", "write each entry as " + shape);
      }
      long i = fields.natural(0, Long.MAX_VALUE / 10);
      long j = fields.natural(1, Long.MAX_VALUE / 10);
      if (i < 0 || j < 0) {
        throw InputException.at(source, lineNo, "the ids '" + fields.text(0) + " " + fields.text(1) + "' are not both "
            + "positive integers", "write ids as decimal integers from 1");
      }
      if (i < 1 || i > rows || j < 1 || j > cols) {
        throw InputException.at(source, lineNo, "entry (" + i + ", " + j + ") is outside the " + rows + " x " + cols
            + " matrix (ids are 1-based)", "use ids from 1 to the size line's rows and cols, or enlarge them");
      }
      if (valueFields == 1 && !(field.equals("integer") ? fields.isInteger(2) : fields.isReal(2))) {
        throw InputException.at(source, lineNo, "the value '" + fields.text(2) + "' is not " + (field.equals("integer")
            ? "an integer" : "a real number"), "write the value as a decimal number, or declare the field as it is");
      }
      edges.add((int) (i - 1), (int) (j - 1));
      entries++;
    }
    if (entries < nnz) {
      throw InputException.at(source, lineNo + 1, "the file ends after " + entries + " of the " + nnz + " entries the "
          + "size line promises", "restore the missing entries, or lower the size line's count");
    }
    return CsrGraph.build(edges, (int) Math.max(rows, cols), symmetric);
  }
}
