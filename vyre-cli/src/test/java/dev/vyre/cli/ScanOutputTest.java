package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.scan.FileResult;
import dev.vyre.scan.HitList;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanFile;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@code vyre scan} prints its results, and what an interrupted scan keeps. */
class ScanOutputTest {

  private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
  private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();

  private ScanOutput output(ScanOutput.Format format) throws IOException {
    return new ScanOutput(new BufferedOutputStream(stdout, 1 << 16), new PrintStream(stderr, true, StandardCharsets.UTF_8),
        PatternSet.fromArguments(List.of("he"), false), format, false, Long.MAX_VALUE, false);
  }

  private static FileResult result(String path, long... starts) {
    HitList hits = new HitList();
    for (long start : starts) {
      hits.add(start, 0);
    }
    return new FileResult(new ScanFile(Path.of(path), 100), 0, starts.length, hits, null, false, false);
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
        case PATHS -> "a\nb\n";
        case JSON_PATHS -> "{\"path\":\"a\"}\n{\"path\":\"b\"}\n";
        case QUIET -> "";
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
    FileResult result = new FileResult(new ScanFile(Path.of("f"), 100), 0, 3, hits, null, false, false);
    try (ScanOutput output = new ScanOutput(stdout, new PrintStream(stderr, true, StandardCharsets.UTF_8), patterns,
        ScanOutput.Format.JSON, false, Long.MAX_VALUE, false)) {
      output.file(result);
    }
    assertEquals("""
        {"path":"f","offset":0,"pattern_id":0,"pattern":"k\uFFFD","pattern_bytes":"a/8="}
        {"path":"f","offset":5,"pattern_id":1,"pattern":"é"}
        {"path":"f","offset":9,"pattern_id":2,"pattern":"\uFFFD","pattern_bytes":"7aCA"}
        """, stdout.toString(StandardCharsets.UTF_8), "an encoded surrogate is not UTF-8 either");
    stdout.reset();
    try (ScanOutput output = new ScanOutput(stdout, new PrintStream(stderr, true, StandardCharsets.UTF_8), patterns,
        ScanOutput.Format.LINES, false, Long.MAX_VALUE, false)) {
      output.file(result);
    }
    assertArrayEquals(new byte[] {'f', ':', '0', ':', 'k', (byte) 0xFF, '\n', 'f', ':', '5', ':', (byte) 0xC3,
        (byte) 0xA9, '\n', 'f', ':', '9', ':', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '\n'}, stdout.toByteArray());
  }

  /**
   * -s leaves out the errors of files that could not be opened or read, not a limit of the scan's;
   * -L lists no file that failed, since one not read to its end is not known to have no match.
   */
  @Test
  void noMessagesKeepsLimitErrorsAndFilesWithoutMatchSkipsFailedFiles() throws IOException {
    FileResult unreadable = new FileResult(new ScanFile(Path.of("u"), 1), 0, 0, null, "Permission denied", true, true);
    String tooMany = "16777217 matches in the chunk at offset 0 exceed the 16777216 a hit buffer holds; the matches there"
        + " are not reported";
    FileResult limited = new FileResult(new ScanFile(Path.of("l"), 1), 1, 0, null, tooMany, false, false);
    FileResult clean = new FileResult(new ScanFile(Path.of("c"), 1), 2, 0, null, null, false, false);
    try (ScanOutput output = new ScanOutput(stdout, new PrintStream(stderr, true, StandardCharsets.UTF_8),
        PatternSet.fromArguments(List.of("he"), false), ScanOutput.Format.PATHS, true, Long.MAX_VALUE, true)) {
      output.file(unreadable);
      output.file(limited);
      output.file(clean);
    }
    assertEquals("c\n", stdout.toString(StandardCharsets.UTF_8));
    assertEquals("vyre scan: l: " + tooMany + ". Fix: scan it with a smaller --chunk-size, or count its matches with -c,"
        + " which has no such limit\n", stderr.toString(StandardCharsets.UTF_8));
  }

  /** As grep -c: no count for a file that could not be opened, its count so far for one that failed part-way. */
  @Test
  void countPrintsNoLineForAFileThatCouldNotBeOpened() throws IOException {
    FileResult unopened = new FileResult(new ScanFile(Path.of("u"), 1), 0, 0, null, "Permission denied", true, true);
    FileResult cutShort = new FileResult(new ScanFile(Path.of("r"), 1), 1, 2, null, "read failed at offset 0: Input/output error",
        true, false);
    try (ScanOutput output = new ScanOutput(stdout, new PrintStream(stderr, true, StandardCharsets.UTF_8),
        PatternSet.fromArguments(List.of("he"), false), ScanOutput.Format.COUNT, false, Long.MAX_VALUE, false)) {
      output.file(unopened);
      output.file(cutShort);
    }
    assertEquals("r:2\n", stdout.toString(StandardCharsets.UTF_8));
    assertEquals("vyre scan: u: Permission denied. Fix: make it readable (chmod, or run as a user who may read it), or"
        + " leave it out with --exclude or --exclude-dir\nvyre scan: r: read failed at offset 0: Input/output error. Fix:"
        + " check the disk it is on (dmesg may say more), then scan again\n", stderr.toString(StandardCharsets.UTF_8));
  }

  /**
   * A buffer in front of stdout passes on whole writes only, so every write that leaves it must end
   * a line: then stdout never ends inside one, whenever the process dies (SIGINT after the shutdown
   * hook, SIGKILL). A buffer of 40 bytes fills after a line or two; the long path's lines exceed it.
   */
  @Test
  void everyWritePastAStdoutBufferEndsALine() throws IOException {
    String longPath = "dir/".repeat(20) + "long";
    for (ScanOutput.Format format : ScanOutput.Format.values()) {
      List<byte[]> writes = new ArrayList<>();
      OutputStream recorder = new OutputStream() {
        @Override
        public void write(int b) {
          writes.add(new byte[] {(byte) b});
        }

        @Override
        public void write(byte[] b, int off, int len) {
          writes.add(Arrays.copyOfRange(b, off, off + len));
        }
      };
      try (ScanOutput output = new ScanOutput(new BufferedOutputStream(recorder, 40),
          new PrintStream(stderr, true, StandardCharsets.UTF_8), PatternSet.fromArguments(List.of("he"), false), format,
          false, Long.MAX_VALUE, false)) {
        for (int file = 0; file < 30; file++) {
          output.file(result(file % 3 == 0 ? longPath + file : "f" + file, 0, 12, 345, 6789));
        }
      }
      assertTrue(format == ScanOutput.Format.QUIET || writes.size() > 10, format + ": " + writes.size() + " writes");
      for (byte[] write : writes) {
        assertTrue(write.length > 0 && write[write.length - 1] == '\n', format + ": a write ends inside a line: "
            + new String(write, StandardCharsets.UTF_8));
      }
    }
  }
}
