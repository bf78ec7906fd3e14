package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

  @Test
  void outputToTheSameTerminalErasesTheLineFirstSoTheyDoNotMix() throws InterruptedException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream terminal = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    try (ScanProgress progress = ScanProgress.start(() -> 1, 2, terminal, true)) {
      Thread.sleep(1600);
      assertTrue(bytes.toString(StandardCharsets.UTF_8).endsWith("GB/s"), "shown after a second");
      progress.printing(() -> terminal.print("a.txt:0:he\n"));
      assertTrue(bytes.toString(StandardCharsets.UTF_8).endsWith("GB/s\r\u001b[Ka.txt:0:he\n"), bytes.toString());
    }
  }
}
