package dev.vyre.cli.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hand-formatted {@code vertex<TAB>value} lines read as {@link Integer#toString} writes them, across buffer refills. */
class VertexValuesTest {

  @Test
  void everyIntIsWrittenAsJavaWritesIt(@TempDir Path dir) throws IOException {
    int[] values = new int[10_000];
    int[] edges = {0, -1, 9, 10, -10, 99, 100, Integer.MAX_VALUE, Integer.MIN_VALUE, 1_000_000_007};
    for (int v = 0; v < values.length; v++) {
      values[v] = v < edges.length ? edges[v] : (v * 7919) - 5000;
    }
    Path file = dir.resolve("values.tsv");
    VertexValues.write(file, values);
    StringBuilder expected = new StringBuilder();
    for (int v = 0; v < values.length; v++) {
      expected.append(v).append('\t').append(values[v]).append('\n');
    }
    assertEquals(expected.toString(), Files.readString(file, StandardCharsets.US_ASCII));
  }
}
