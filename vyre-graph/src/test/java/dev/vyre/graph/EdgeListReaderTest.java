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

class EdgeListReaderTest {

  @TempDir Path dir;

  private Path file(String text) throws IOException {
    Path f = dir.resolve("g.el");
    Files.writeString(f, text);
    return f;
  }

  private static final String TEXT = "# a comment\n0 2\n\n0\t1   # trailing comment\n2 0\n1 1\n0 2\n";

  @Test
  void linesAreDirectedArcsByDefault() throws IOException {
    try (CsrGraph g = EdgeListReader.read(file(TEXT))) {
      assertFalse(g.undirected());
      assertEquals(3, g.vertexCount());
      assertEquals(List.of(List.of(1, 2), List.of(), List.of(0)), GraphFixtures.adjacency(g));
    }
  }

  @Test
  void undirectedReadingSymmetrizes() throws IOException {
    try (CsrGraph g = EdgeListReader.read(file(TEXT), true)) {
      assertTrue(g.undirected());
      assertEquals(List.of(List.of(1, 2), List.of(0), List.of(0)), GraphFixtures.adjacency(g));
      GraphFixtures.checkInvariants(g);
    }
  }

  @Test
  void anEmptyFileIsTheEmptyGraph() throws IOException {
    try (CsrGraph g = EdgeListReader.read(file("# nothing\n"))) {
      assertEquals(0, g.vertexCount());
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "one field|'0 1\n2\n'|2|1 fields, not 2",
      "three fields|'0 1\n# c\n1 2 3\n'|3|3 fields, not 2",
      "negative id|'0 -1\n'|1|'-1'",
      "not a number|'0 1\n1 x\n'|2|'x'",
      "id too large|'0 2147483647\n'|1|'2147483647'"})
  void badInputIsATypedErrorNamingTheFileAndLine(String name, String text, long line, String problem)
      throws IOException {
    Path f = file(text);
    InputException e = assertThrows(InputException.class, () -> EdgeListReader.read(f));
    assertTrue(e.getMessage().startsWith(f + ":" + line + ": "), e.getMessage());
    assertTrue(e.getMessage().contains(problem), e.getMessage());
    assertTrue(e.getMessage().matches("(?s).*\\. Fix: .+"), e.getMessage());
  }

  @Test
  void aMissingFileIsATypedError() {
    InputException e = assertThrows(InputException.class, () -> EdgeListReader.read(dir.resolve("absent.el")));
    assertTrue(e.getMessage().contains("Fix: "));
  }
}
