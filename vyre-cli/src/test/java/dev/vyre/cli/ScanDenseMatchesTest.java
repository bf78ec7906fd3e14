package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files with dense matches (#25): matches stream to the output chunk by chunk with a heap bounded
 * by the chunks in flight, every format prints what it prints for the file in one chunk, and -m,
 * -q, -l and -L stop reading a file once they have their answer.
 */
class ScanDenseMatchesTest {

  private static final Pattern SCANNED = Pattern.compile("vyre scan: (\\d+) file\\(s\\), (\\d+) bytes in");

  @TempDir Path dir;

  private static CliRun scan(List<String> args) {
    List<String> all = new ArrayList<>(List.of("scan", "--backend=reference"));
    all.addAll(args);
    return CliRun.of(all.toArray(String[]::new));
  }

  /** The bytes the scan says it scanned (--verbose). */
  private static long bytesScanned(CliRun run) {
    Matcher matcher = SCANNED.matcher(run.err());
    assertTrue(matcher.find(), run.err());
    return Long.parseLong(matcher.group(2));
  }

  /**
   * Every format, in chunks of 256 bytes (three buffers, so chunks finish out of order, and a
   * pattern of 8 bytes whose matches cross chunks and start before shorter ones' in the chunk
   * before) prints byte for byte what it prints with each file in one chunk, as before streaming.
   */
  @Test
  void everyFormatPrintsInTinyChunksWhatItPrintsInOne() throws IOException {
    Random random = new Random(25);
    Files.write(dir.resolve("big.txt"), text(random, 40_000));
    Files.write(dir.resolve("small.txt"), text(random, 200));
    Files.write(dir.resolve("mid.txt"), text(random, 3_000));
    Files.writeString(dir.resolve("none.txt"), "nothing here\n");
    List<String> patterns = List.of("-e", "bcdefabc", "-e", "f", "-e", "cd", "-e", "ab");
    List<List<String>> modes = List.of(List.of(), List.of("-c"), List.of("--json"), List.of("-l"), List.of("-L"),
        List.of("-q"), List.of("-m", "7"), List.of("-n"), List.of("-w"), List.of("-n", "-w"), List.of("-Z", "-l"),
        List.of("-h"), List.of("--json", "-n"), List.of("-c", "-w"), List.of("-m", "5", "-w"), List.of("-l", "-w"),
        List.of("-c", "-m", "9"), List.of("-L", "-w"), List.of("-q", "-w"), List.of("--json", "-l"));
    for (List<String> mode : modes) {
      List<String> args = new ArrayList<>(mode);
      args.addAll(patterns);
      args.add(dir.toString());
      CliRun whole = scan(args);
      List<String> tiny = new ArrayList<>(List.of("--chunk-size", "256", "--task-size", "32", "--buffers", "3"));
      tiny.addAll(args);
      CliRun chunked = scan(tiny);
      assertEquals(whole.status(), chunked.status(), mode + ": " + chunked.err());
      assertEquals(whole.out(), chunked.out(), mode.toString());
      assertEquals(whole.err(), chunked.err(), mode.toString());
      assertTrue(mode.contains("-q") || mode.contains("-L") || whole.out().length() > 0, mode.toString());
    }
  }

  /**
   * A 32 MiB file of "x " (16 Mi whole-word matches of x): -m, -q, -l and -L read a chunk or two of
   * it, as the scan's own byte count says; -c still counts every match.
   */
  @Test
  void maxCountQuietAndListingStopReadingADenseFileEarly() throws IOException {
    int pairs = 16 << 20;
    byte[] dense = new byte[2 * pairs];
    for (int i = 0; i < dense.length; i += 2) {
      dense[i] = 'x';
      dense[i + 1] = ' ';
    }
    Path file = Files.write(dir.resolve("dense"), dense);
    String f = file.toString();
    record Case(List<String> args, int status, String out) {}
    List<Case> cases = List.of(new Case(List.of("-m", "1"), 0, f + ":0:x\n"),
        new Case(List.of("-q"), 0, ""),
        new Case(List.of("-l"), 0, f + "\n"),
        new Case(List.of("-L"), 0, ""),
        new Case(List.of("-c", "-m", "3"), 0, f + ":3\n"),
        new Case(List.of("-w", "-m", "2"), 0, f + ":0:x\n" + f + ":2:x\n"),
        new Case(List.of("-n", "-m", "2", "--json"), 0, "{\"path\":\"" + f + "\",\"line\":1,\"offset\":0,\"pattern_id\":0,"
            + "\"pattern\":\"x\"}\n{\"path\":\"" + f + "\",\"line\":1,\"offset\":2,\"pattern_id\":0,\"pattern\":\"x\"}\n"),
        new Case(List.of("-l", "-w"), 0, f + "\n"));
    for (Case c : cases) {
      List<String> args = new ArrayList<>(List.of("--verbose"));
      args.addAll(c.args());
      args.addAll(List.of("-e", "x", f));
      CliRun run = scan(args);
      assertEquals(c.status(), run.status(), c.args() + ": " + run.err());
      assertEquals(c.out(), run.out(), c.args().toString());
      long scanned = bytesScanned(run);
      assertTrue(scanned > 0 && scanned <= dense.length / 4, c.args() + " scanned " + scanned + " of " + dense.length);
    }
    CliRun count = scan(List.of("--verbose", "-c", "-e", "x", f));
    assertEquals(f + ":" + pairs + "\n", count.out(), count.err());
    assertEquals(dense.length, bytesScanned(count));
  }

  /**
   * Every match of a 12 MiB file of x, with its line, printed by a JVM whose 64 MiB heap could not
   * hold the file's matches (8 bytes each, 96 MiB) as it did before streaming.
   */
  @Test
  void aSmallHeapPrintsEveryMatchOfADenseFile() throws IOException, InterruptedException {
    int size = 12 << 20;
    byte[] dense = new byte[size];
    Arrays.fill(dense, (byte) 'x');
    Path file = Files.write(dir.resolve("x"), dense);
    ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx64m", "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        VyreCommand.class.getName(), "scan", "--backend=reference", "--no-server", "-h", "-n", "-e", "x", file.toString());
    builder.redirectError(dir.resolve("stderr").toFile());
    Process process = builder.start();
    long lines = 0;
    ByteArrayOutputStream first = new ByteArrayOutputStream();
    byte[] last = new byte[64];
    int lastLength = 0;
    try (InputStream out = new BufferedInputStream(process.getInputStream(), 1 << 16)) {
      byte[] buffer = new byte[1 << 16];
      int read;
      while ((read = out.read(buffer)) >= 0) {
        for (int i = 0; i < read; i++) {
          if (lines < 3) {
            first.write(buffer[i]);
          }
          if (buffer[i] == '\n') {
            lines++;
            lastLength = 0;
          } else if (lastLength < last.length) {
            last[lastLength++] = buffer[i];
          }
        }
      }
    }
    String err = Files.readString(dir.resolve("stderr"));
    assertEquals(0, process.waitFor(), err);
    assertEquals(size, lines, err);
    assertEquals("1:0:x\n1:1:x\n1:2:x\n", first.toString(StandardCharsets.US_ASCII));
    assertEquals(0, lastLength, "the output ends with a whole line");
  }

  /** "abcdef" over and over, with a random space, newline, underscore or letter now and then. */
  private static byte[] text(Random random, int length) {
    byte[] text = new byte[length];
    for (int i = 0; i < length; i++) {
      text[i] = (byte) (random.nextInt(12) == 0 ? " \n_abcdef".charAt(random.nextInt(9)) : "abcdef".charAt(i % 6));
    }
    return text;
  }
}
