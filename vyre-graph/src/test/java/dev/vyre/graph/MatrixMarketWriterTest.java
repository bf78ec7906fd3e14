package dev.vyre.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MatrixMarketWriterTest {

  @TempDir Path dir;

  @Test
  void anUndirectedGraphIsWrittenSymmetricAsItsLowerTriangle() throws IOException {
    Path f = dir.resolve("g.mtx");
    try (EdgeList edges = EdgeList.create()) {
      edges.add(0, 1);
      edges.add(2, 1);
      try (CsrGraph g = CsrGraph.build(edges, 3, true)) {
        MatrixMarketWriter.write(g, f);
      }
    }
    assertEquals(List.of("%%MatrixMarket matrix coordinate pattern symmetric", "% written by vyre-graph", "3 3 2",
        "2 1", "3 2"), Files.readAllLines(f));
  }

  @Test
  void aDirectedGraphIsWrittenGeneral() throws IOException {
    Path f = dir.resolve("g.mtx");
    try (EdgeList edges = EdgeList.create()) {
      edges.add(1, 0);
      edges.add(0, 2);
      try (CsrGraph g = CsrGraph.build(edges, 3, false)) {
        MatrixMarketWriter.write(g, f);
      }
    }
    assertEquals(List.of("%%MatrixMarket matrix coordinate pattern general", "% written by vyre-graph", "3 3 2",
        "1 3", "2 1"), Files.readAllLines(f));
  }

  @Test
  void generatedGraphsRoundTripThroughTheReader() {
    Path f = dir.resolve("rt.mtx");
    try (CsrGraph k = GraphGenerators.kronecker(10, 8, 3)) {
      MatrixMarketWriter.write(k, f);
      try (CsrGraph back = MatrixMarketReader.read(f)) {
        GraphFixtures.assertSameGraph(k, back);
      }
    }
    try (CsrGraph grid = GraphGenerators.grid(7, 9)) {
      MatrixMarketWriter.write(grid, f);
      try (CsrGraph back = MatrixMarketReader.read(f)) {
        GraphFixtures.assertSameGraph(grid, back);
      }
    }
    try (EdgeList edges = EdgeList.create()) {
      edges.add(3, 0);
      edges.add(0, 3);
      edges.add(1, 2);
      try (CsrGraph directed = CsrGraph.build(edges, 5, false)) {
        MatrixMarketWriter.write(directed, f);
        try (CsrGraph back = MatrixMarketReader.read(f)) {
          GraphFixtures.assertSameGraph(directed, back);
        }
      }
    }
  }

  @Test
  void anUnwritablePathIsATypedError() {
    try (CsrGraph g = GraphGenerators.grid(2, 2)) {
      Path f = dir.resolve("no/such/dir/g.mtx");
      InputException e = assertThrows(InputException.class, () -> MatrixMarketWriter.write(g, f));
      assertTrue(e.getMessage().startsWith(f + ": cannot write"), e.getMessage());
      assertTrue(e.getMessage().contains("Fix: "));
    }
  }
}
