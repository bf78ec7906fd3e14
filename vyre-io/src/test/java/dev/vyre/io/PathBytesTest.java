package dev.vyre.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file name's bytes as the kernel has them, whatever Java's decoding of them made of the name. */
public class PathBytesTest {

  @TempDir Path dir;

  /** Creates files by shell, since a Java String cannot name a file whose name is not UTF-8. */
  public static void touch(Path dir, String... printfNames) throws IOException, InterruptedException {
    StringBuilder script = new StringBuilder("cd \"$1\"");
    for (String name : printfNames) {
      script.append(" && mkdir -p \"$(dirname \"$(printf '").append(name).append("')\")\"")
          .append(" && printf 'key' > \"$(printf '").append(name).append("')\"");
    }
    Process sh = new ProcessBuilder("sh", "-c", script.toString(), "sh", dir.toString()).inheritIO().start();
    assertEquals(0, sh.waitFor(), script.toString());
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      all.writeBytes(part);
    }
    return all.toByteArray();
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private List<Path> walk() throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      return paths.filter(Files::isRegularFile).sorted().toList();
    }
  }

  /** Java decodes these names lossily (how, depends on the locale); the bytes come back whole. */
  @Test
  void namesThatAreNotUtf8KeepTheirBytesAbsoluteOrRelative() throws Exception {
    touch(dir, "a\\377b", "sub\\303/c\\303\\251", "x%%41 y");
    HexFormat hex = HexFormat.of();
    List<String> expected = Stream.of(new byte[] {'a', (byte) 0xFF, 'b'}, ascii("x%41 y"),
        new byte[] {'s', 'u', 'b', (byte) 0xC3, '/', 'c', (byte) 0xC3, (byte) 0xA9}).map(hex::formatHex).sorted().toList();
    List<String> relative = new ArrayList<>();
    for (Path path : walk()) {
      byte[] name = PathBytes.of(dir.relativize(path));
      relative.add(hex.formatHex(name));
      assertArrayEquals(concat(ascii(dir.toString()), ascii("/"), name), PathBytes.of(path), path.toString());
    }
    assertEquals(expected, relative.stream().sorted().toList());
  }

  /** toUri adds a slash to a directory's path, which is no byte of the name. */
  @Test
  void aDirectoryGainsNoSlashAndAnEmptyPathStaysEmpty() throws Exception {
    touch(dir, "d\\377/f");
    Path directory = walk().getFirst().getParent();
    assertArrayEquals(concat(ascii(dir.toString()), ascii("/d"), new byte[] {(byte) 0xFF}), PathBytes.of(directory));
    assertArrayEquals(new byte[0], PathBytes.of(Path.of("")));
  }
}
