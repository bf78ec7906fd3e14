package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.io.PathBytes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's exact bytes: /proc/self/cmdline's entries matched to main's decoded arguments,
 * the escaped form of bytes that are not UTF-8, and the patterns and Paths made from it.
 */
class RawArgumentsTest {

  private static final Charset UTF_8 = StandardCharsets.UTF_8;

  @TempDir Path dir;

  /** A cmdline as the kernel writes it: each entry NUL-terminated. */
  private static byte[] cmdline(byte[]... entries) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] entry : entries) {
      out.writeBytes(entry);
      out.write(0);
    }
    return out.toByteArray();
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void entriesAreTheNulTerminatedStringsEmptyOnesIncluded() {
    List<byte[]> entries = RawArguments.entries(cmdline(ascii("java"), ascii(""), new byte[] {(byte) 0xff}));
    assertEquals(3, entries.size());
    assertArrayEquals(new byte[0], entries.get(1));
    assertArrayEquals(new byte[] {(byte) 0xff}, entries.get(2));
    // An entry missing its NUL (a process that rewrote its argv) still counts.
    assertEquals(2, RawArguments.entries(new byte[] {'a', 0, 'b'}).size());
  }

  @Test
  void theLastEntriesGiveTheArgumentsThatLostBytes() {
    byte[] ff = {(byte) 0xff};
    byte[] name = {'n', (byte) 0xfe, '.', 'b', 'i', 'n'};
    List<byte[]> entries = RawArguments.entries(cmdline(ascii("/usr/bin/java"), ascii("-jar"), ascii("vyre.jar"),
        ascii("scan"), ascii("-e"), ff, ascii("x"), name));
    String[] args = {"scan", "-e", new String(ff, UTF_8), "x", new String(name, UTF_8)};
    String[] exact = RawArguments.recover(entries, args, UTF_8);
    assertEquals("\uFFFD", args[2], "the JVM's decoding");
    assertEquals("\uDCFF", exact[2]);
    assertSame(args[0], exact[0], "an argument that is valid UTF-8 is kept as it is");
    assertSame(args[3], exact[3]);
    assertArrayEquals(ff, RawArguments.bytes(exact[2]));
    assertArrayEquals(name, RawArguments.bytes(exact[4]));
  }

  @Test
  void entriesThatDoNotDecodeToTheArgumentsAreNotUsed() {
    byte[] ff = {(byte) 0xff};
    String[] args = {"-e", "\uFFFD"};
    // Another argument where main's should be (a launcher that rewrote them), or too few entries.
    assertSame(args, RawArguments.recover(RawArguments.entries(cmdline(ascii("-e"), ascii("y"))), args, UTF_8));
    assertSame(args, RawArguments.recover(RawArguments.entries(cmdline(ff)), args, UTF_8));
    // Decoded with the JVM's charset: under ASCII each byte of é became U+FFFD.
    byte[] e = "é".getBytes(UTF_8);
    String[] ascii = {new String(e, StandardCharsets.US_ASCII)};
    assertArrayEquals(new String[] {"é"}, RawArguments.recover(List.of(e), ascii, StandardCharsets.US_ASCII));
    assertSame(ascii, RawArguments.recover(List.of(e), ascii, UTF_8));
  }

  @Test
  void escapingKeepsEveryByteAndEveryCharacter() {
    byte[] mixed = {'a', (byte) 0xc3, (byte) 0xa9, (byte) 0xe2, 'b', (byte) 0xed, (byte) 0xa0, (byte) 0x80,
        (byte) 0xf0, (byte) 0x9f, (byte) 0x98, (byte) 0x80, (byte) 0x80, (byte) 0xff};
    String escaped = RawArguments.escaped(mixed);
    assertTrue(escaped.startsWith("aé\uDCE2b"), escaped);
    assertTrue(escaped.contains("\uD83D\uDE00\uDC80\uDCFF"), escaped);
    assertArrayEquals(mixed, RawArguments.bytes(escaped));
    assertArrayEquals("plain é".getBytes(UTF_8), RawArguments.bytes("plain é"));
  }

  @Test
  void aNameThatIsNotUtf8BecomesThePathOfThatFile() throws IOException {
    Path odd = oddFile(dir, "key");
    String argument = RawArguments.escaped(PathBytes.of(odd));
    assertEquals(odd, RawArguments.path(argument));
    assertEquals("key", Files.readString(RawArguments.path(argument)));
    byte[] relative = {'s', 'u', 'b', '/', '/', 'n', (byte) 0xff, '/'};
    assertArrayEquals(new byte[] {'s', 'u', 'b', '/', 'n', (byte) 0xff},
        PathBytes.of(RawArguments.path(RawArguments.escaped(relative))));
    assertEquals(Path.of("a/b"), RawArguments.path("a/b"));
    assertEquals(Path.of(""), RawArguments.path(""));
  }

  @Test
  void aNameNoPathCanHoldIsATypedErrorWithAFix() {
    InputException error = assertThrows(InputException.class, () -> RawArguments.path("a\u0000\uDCFF"));
    assertTrue(error.getMessage().contains("Fix: "), error.getMessage());
  }

  /** A file in {@code dir} whose name holds the byte FF, made by the shell (Java cannot name it). */
  static Path oddFile(Path dir, String content) throws IOException {
    try {
      Process sh = new ProcessBuilder("sh", "-c", "printf %s \"$2\" > \"$1/$(printf 'n\\377.bin')\"", "sh",
          dir.toString(), content).start();
      Assumptions.assumeTrue(sh.waitFor() == 0, "sh could not make the file");
    } catch (InterruptedException e) {
      throw new IOException(e);
    }
    try (var names = Files.list(dir)) {
      return names.filter(p -> p.getFileName().toString().startsWith("n")).findFirst().orElseThrow();
    }
  }

  /**
   * End to end, in a JVM of its own (main reads its own /proc/self/cmdline): the byte FF given to
   * -e matches the byte FF, not the EF BF BD U+FFFD encodes to, and a file named by bytes that are
   * not UTF-8 is found.
   */
  @Test
  void theCommandLineKeepsBytesThatAreNotUtf8() throws Exception {
    Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/cmdline")), "no /proc/self/cmdline here");
    Files.write(dir.resolve("f"), new byte[] {'a', 'b', (byte) 0xff, 'c', (byte) 0xef, (byte) 0xbf, (byte) 0xbd});
    oddFile(dir, "xx key");
    List<String> command = new ArrayList<>(List.of("bash", "-c",
        "cd \"$1\" && shift && exec \"$@\" scan --backend reference -e \"$(printf '\\377')\" f"
            + " -e key \"$(printf 'n\\377.bin')\"", "bash", dir.toString(),
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
        VyreCommand.class.getName()));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("LC_ALL", "C.UTF-8");
    Process process = builder.start();
    byte[] out = process.getInputStream().readAllBytes();
    String err = new String(process.getErrorStream().readAllBytes(), UTF_8);
    assertEquals(0, process.waitFor(), err);
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.writeBytes(new byte[] {'f', ':', '2', ':', (byte) 0xff, '\n'});
    expected.writeBytes(new byte[] {'n', (byte) 0xff, '.', 'b', 'i', 'n', ':', '3', ':', 'k', 'e', 'y', '\n'});
    assertEquals(HexFormat.of().formatHex(expected.toByteArray()), HexFormat.of().formatHex(out), err);
    assertTrue(Arrays.equals(expected.toByteArray(), out));
  }
}
