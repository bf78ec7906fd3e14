package dev.vyre.observe.replay;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.vyre.driver.error.VyreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Coverage-guided fuzzing of what {@code vyre replay} reads, through the readers' public entry
 * points on the bytes of a file: the replay log (read, and salvaged past damaged records) and its
 * rerun sidecar. Only a typed error with a fix may come out.
 */
class ReplayFilesFuzzTest {

  @TempDir static Path directory;

  @Timeout(10)
  @FuzzTest
  void replayLog(byte[] file) throws IOException {
    read(file, "fuzz.vrrl", RingLog::read);
    read(file, "fuzz.vrrl", RingLog::salvage);
  }

  @Timeout(10)
  @FuzzTest
  void rerunSidecar(byte[] file) throws IOException {
    read(file, "fuzz.vrrl" + RerunSidecar.SUFFIX, RerunSidecar::read);
  }

  private static void read(byte[] bytes, String name, Consumer<Path> reader) throws IOException {
    Path file = Files.write(directory.resolve(name), bytes);
    try {
      reader.accept(file);
    } catch (VyreException e) {
      assertTrue(e.getMessage().contains("Fix: "), e::getMessage);
    }
  }
}
