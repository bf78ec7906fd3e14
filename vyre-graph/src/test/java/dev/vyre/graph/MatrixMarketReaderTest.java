package dev.vyre.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MatrixMarketReaderTest {

  @TempDir Path dir;

  private Path file(String text) throws IOException {
    Path f = dir.resolve("m.mtx");
    Files.writeString(f, text);
    return f;
  }

  @ParameterizedTest
  @CsvSource({"pattern, '', ''", "integer, ' 7', ' -2'", "real, ' 0.5', ' -1.25e-3'"})
  void aGeneralFileReadsAsTheDirectedGraphOfItsEntries(String field, String v1, String v2) throws IOException {
    Path f = file("%%MatrixMarket matrix coordinate " + field + " general\n% a comment\n%\n4 4 5\n"
        + "1 2" + v1 + "\n1 4" + v2 + "\n3 3" + v1 + "\n4 1" + v2 + "\n1 2" + v1 + "\n");
    try (CsrGraph g = MatrixMarketReader.read(f)) {
      assertFalse(g.undirected());
      assertEquals(4, g.vertexCount());
      assertEquals(3, g.edgeCount());
      assertEquals(List.of(List.of(1, 3), List.of(), List.of(), List.of(0)), GraphFixtures.adjacency(g));
    }
  }

  @ParameterizedTest
  @CsvSource({"pattern, ''", "integer, ' 3'", "real, ' 2.0'"})
  void aSymmetricFileReadsAsTheUndirectedGraph(String field, String value) throws IOException {
    Path f = file("%%matrixmarket MATRIX Coordinate " + field + " Symmetric\n3 3 3\n2 1" + value + "\n3 2" + value
        + "\n3 3" + value + "\n");
    try (CsrGraph g = MatrixMarketReader.read(f)) {
      assertTrue(g.undirected());
      assertEquals(4, g.edgeCount());
      assertEquals(List.of(List.of(1), List.of(0, 2), List.of(1)), GraphFixtures.adjacency(g));
    }
  }

  @Test
  void blankLinesAndTabsAreTolerated() throws IOException {
    Path f = file("%%MatrixMarket matrix coordinate pattern general\n\n  2\t3 1  \n\n1\t3\n\n");
    try (CsrGraph g = MatrixMarketReader.read(f)) {
      assertEquals(3, g.vertexCount());
      assertEquals(List.of(List.of(2), List.of(), List.of()), GraphFixtures.adjacency(g));
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "empty file|''|1|empty",
      "missing header|'3 3 1\n1 2\n'|1|not a Matrix Market header",
      "short header|'%%MatrixMarket matrix coordinate pattern\n'|1|4 fields",
      "array format|'%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n'|1|'array'",
      "complex field|'%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n'|1|'complex'",
      "hermitian|'%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n'|1|'hermitian'",
      "vector object|'%%MatrixMarket vector coordinate real general\n'|1|'vector'",
      "no size line|'%%MatrixMarket matrix coordinate pattern general\n% c\n'|3|before the size line",
      "size line fields|'%%MatrixMarket matrix coordinate pattern general\n3 3\n'|2|2 fields, not 3",
      "size not a number|'%%MatrixMarket matrix coordinate pattern general\n3 x 1\n'|2|not three non-negative",
      "symmetric not square|'%%MatrixMarket matrix coordinate pattern symmetric\n3 4 0\n'|2|not square",
      "entry field count|'%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n1 2 3\n'|4|3 fields, not 2",
      "missing value|'%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2\n'|3|2 fields, not 3",
      "row out of range|'%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n4 1\n'|4|outside the 3 x 3",
      "zero id|'%%MatrixMarket matrix coordinate pattern general\n3 3 1\n0 1\n'|3|outside the 3 x 3",
      "negative id|'%%MatrixMarket matrix coordinate pattern general\n3 3 1\n-1 1\n'|3|not both positive",
      "huge id|'%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 99999999999999999999999\n'|3|not both positive",
      "id not a number|'%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 b\n'|3|not both positive",
      "integer not a number|'%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 1.5\n'|3|not an integer",
      "real not a number|'%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 abc\n'|3|not a real number",
      "fewer entries|'%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 3\n'|5|after 2 of the 3",
      "more entries|'%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n'|4|more entries than the 1"})
  void badInputIsATypedErrorNamingTheFileAndLine(String name, String text, long line, String problem)
      throws IOException {
    Path f = file(text);
    InputException e = assertThrows(InputException.class, () -> MatrixMarketReader.read(f));
    String message = e.getMessage();
    assertTrue(message.startsWith(f + ":" + line + ": "), message);
    assertTrue(message.contains(problem), message);
    assertTrue(message.matches("(?s).*\\. Fix: .+"), message);
    assertEquals(line, e.fields().get("line"));
  }

  @Test
  void aMissingFileIsATypedError() {
    Path f = dir.resolve("absent.mtx");
    InputException e = assertThrows(InputException.class, () -> MatrixMarketReader.read(f));
    assertTrue(e.getMessage().startsWith(f + ": cannot read"), e.getMessage());
    assertTrue(e.getMessage().contains("Fix: "));
  }
}
