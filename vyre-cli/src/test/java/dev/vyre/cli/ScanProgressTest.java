package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ScanProgressTest {

  @Test
  void lineShowsBarBytesPercentAndRate() {
    assertEquals("vyre scan [###############               ] 512 / 1,024 MB (50%) 0.54 GB/s",
        ScanProgress.line(512L << 20, 1L << 30, 1_000_000_000L));
    assertEquals("vyre scan [##############################] 0 / 0 MB (100%) 0.00 GB/s", ScanProgress.line(0, 0, 0));
  }

  @Test
  void printsNothingWhenStderrIsNotATerminal() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (ScanProgress progress = ScanProgress.start(() -> 1, 2, new PrintStream(err, true, StandardCharsets.UTF_8))) {
      assertEquals(0, err.size());
    }
    assertEquals(0, err.size());
  }
}
