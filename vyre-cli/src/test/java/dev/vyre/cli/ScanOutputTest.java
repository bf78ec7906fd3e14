package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.runtime.scan.FileResult;
import dev.vyre.runtime.scan.HitList;
import dev.vyre.runtime.scan.PatternSet;
import dev.vyre.runtime.scan.ScanFile;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@code vyre scan} prints its results, and what an interrupted scan keeps. */
class ScanOutputTest {

  private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
  private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();

  private ScanOutput output(ScanOutput.Format format) throws IOException {
    return new ScanOutput(new BufferedOutputStream(stdout, 1 << 16), new PrintStream(stderr, true, StandardCharsets.UTF_8),
        PatternSet.fromArguments(List.of("he"), false), format);
  }

  private static FileResult result(String path, long... starts) {
    HitList hits = new HitList();
    for (long start : starts) {
      hits.add(start, 0);
    }
    return new FileResult(new ScanFile(Path.of(path), 100), 0, starts.length, hits, null);
  }

  @Test
  void anInterruptedScanFlushesTheFilesPrintedSoFarWholeAndPrintsNothingAfter() throws IOException {
    for (ScanOutput.Format format : ScanOutput.Format.values()) {
      stdout.reset();
      ScanOutput output = output(format);
      output.file(result("a", 0, 3));
      output.file(result("b", 7));
      assertEquals("", stdout.toString(StandardCharsets.UTF_8), "still buffered");
      output.interrupted();
      String kept = stdout.toString(StandardCharsets.UTF_8);
      assertEquals(switch (format) {
        case LINES -> "a:0:he\na:3:he\nb:7:he\n";
        case COUNT -> "a:2\nb:1\n";
        case JSON -> """
            {"path":"a","offset":0,"pattern_id":0,"pattern":"he"}
            {"path":"a","offset":3,"pattern_id":0,"pattern":"he"}
            {"path":"b","offset":7,"pattern_id":0,"pattern":"he"}
            """;
      }, kept, format.name());
      output.file(result("c", 1));
      output.close();
      assertEquals(kept, stdout.toString(StandardCharsets.UTF_8), "nothing after the interrupt: " + format);
    }
  }

  /**
   * A pattern that is not UTF-8 keeps its "pattern" string, lossy, and gains its exact bytes in
   * "pattern_bytes"; a UTF-8 one, ASCII or not, prints as before. Lines print the bytes as they are.
   */
  @Test
  void patternsThatAreNotUtf8CarryTheirBytesInBase64() throws IOException {
    PatternSet patterns = PatternSet.of(List.of(new byte[] {'k', (byte) 0xFF}, "é".getBytes(StandardCharsets.UTF_8),
        new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}), false, "t");
    HitList hits = new HitList();
    hits.add(0, 0);
    hits.add(5, 1);
    hits.add(9, 2);
    FileResult result = new FileResult(new ScanFile(Path.of("f"), 100), 0, 3, hits, null);
    try (ScanOutput output = new ScanOutput(stdout, new PrintStream(stderr, true, StandardCharsets.UTF_8), patterns,
        ScanOutput.Format.JSON)) {
      output.file(result);
    }
    assertEquals("""
        {"path":"f","offset":0,"pattern_id":0,"pattern":"k\uFFFD","pattern_bytes":"a/8="}
        {"path":"f","offset":5,"pattern_id":1,"pattern":"é"}
        {"path":"f","offset":9,"pattern_id":2,"pattern":"\uFFFD","pattern_bytes":"7aCA"}
        """, stdout.toString(StandardCharsets.UTF_8), "an encoded surrogate is not UTF-8 either");
    stdout.reset();
    try (ScanOutput output = new ScanOutput(stdout, new PrintStream(stderr, true, StandardCharsets.UTF_8), patterns,
        ScanOutput.Format.LINES)) {
      output.file(result);
    }
    assertArrayEquals(new byte[] {'f', ':', '0', ':', 'k', (byte) 0xFF, '\n', 'f', ':', '5', ':', (byte) 0xC3,
        (byte) 0xA9, '\n', 'f', ':', '9', ':', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '\n'}, stdout.toByteArray());
  }
}
