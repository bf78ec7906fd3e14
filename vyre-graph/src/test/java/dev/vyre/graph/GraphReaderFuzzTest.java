package dev.vyre.graph;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.vyre.driver.error.VyreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Coverage-guided fuzzing of the frontier engine's graph readers on the bytes of a graph file: only
 * a typed error with a fix may come out.
 */
class GraphReaderFuzzTest {

  @TempDir static Path directory;

  @Timeout(10)
  @FuzzTest
  void matrixMarket(byte[] file) throws IOException {
    read(file, "fuzz.mtx", MatrixMarketReader::read);
  }

  @Timeout(10)
  @FuzzTest
  void edgeList(byte[] file) throws IOException {
    read(file, "fuzz.el", path -> EdgeListReader.read(path, false));
    read(file, "fuzz.el", path -> EdgeListReader.read(path, true));
  }

  private static void read(byte[] bytes, String name, Function<Path, CsrGraph> reader) throws IOException {
    // The readers take a path, as vyre graph does: the bytes go through a real file.
    Path file = Files.write(directory.resolve(name), bytes);
    try {
      reader.apply(file).close();
    } catch (VyreException e) {
      assertTrue(e.getMessage().contains("Fix: "), e::getMessage);
    }
  }
}
