package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vyre scan} over a tree of many small files, which it packs several to a chunk, against a
 * naive per-file model, in every output mode (lines, -c, -l, -L, -q, -m, --json): empty files,
 * files larger than a chunk between the small ones, every byte value, and pattern halves at the
 * end of one file and the start of the next, which must not match across the two.
 */
class ScanPackedFilesCliTest {

  /** "abcd" only ever appears split over two neighbouring files: it must never match. */
  private static final List<String> PATTERNS = List.of("abcd", "ab", "cd", "String", "\u00ffz", "import");

  @TempDir Path dir;

  private static List<long[]> model(byte[] input) {
    List<long[]> hits = new ArrayList<>();
    for (int start = 0; start < input.length; start++) {
      for (int id = 0; id < PATTERNS.size(); id++) {
        byte[] p = PATTERNS.get(id).getBytes(StandardCharsets.ISO_8859_1);
        boolean match = start + p.length <= input.length;
        for (int i = 0; match && i < p.length; i++) {
          match = p[i] == input[start + i];
        }
        if (match) {
          hits.add(new long[] {start, id});
        }
      }
    }
    return hits;
  }

  @Test
  void everyOutputModeEqualsTheModelWithSmallFilesPacked() throws IOException {
    Path patterns = Files.write(dir.resolve("patterns"), String.join("\n", PATTERNS).getBytes(StandardCharsets.ISO_8859_1));
    Path tree = Files.createDirectory(dir.resolve("tree"));
    Random r = new Random(24);
    List<Path> paths = new ArrayList<>();
    List<byte[]> contents = new ArrayList<>();
    for (int f = 0; f < 300; f++) {
      byte[] content = switch (f % 23) {
        case 0, 7 -> new byte[0];
        case 11 -> bytes(r, 9000 + r.nextInt(3000)); // larger than a chunk
        default -> bytes(r, 1 + r.nextInt(f % 5 == 0 ? 1500 : 120));
      };
      if (content.length >= 2 && f % 2 == 0) {
        content[content.length - 2] = 'a';
        content[content.length - 1] = 'b';
      } else if (content.length >= 2) {
        content[0] = 'c';
        content[1] = 'd';
      }
      paths.add(Files.write(tree.resolve(String.format("f%03d", f)), content));
      contents.add(content);
    }

    ByteArrayOutputStream lines = new ByteArrayOutputStream();
    ByteArrayOutputStream firstTwo = new ByteArrayOutputStream();
    StringBuilder counts = new StringBuilder();
    StringBuilder countsUpToTwo = new StringBuilder();
    StringBuilder withMatch = new StringBuilder();
    StringBuilder withoutMatch = new StringBuilder();
    List<String> json = new ArrayList<>();
    for (int f = 0; f < paths.size(); f++) {
      List<long[]> hits = model(contents.get(f));
      counts.append(paths.get(f)).append(':').append(hits.size()).append('\n');
      countsUpToTwo.append(paths.get(f)).append(':').append(Math.min(2, hits.size())).append('\n');
      (hits.isEmpty() ? withoutMatch : withMatch).append(paths.get(f)).append('\n');
      for (int h = 0; h < hits.size(); h++) {
        byte[] line = (paths.get(f) + ":" + hits.get(h)[0] + ":" + PATTERNS.get((int) hits.get(h)[1]) + "\n")
            .getBytes(StandardCharsets.ISO_8859_1);
        lines.write(line);
        if (h < 2) {
          firstTwo.write(line);
        }
        json.add(paths.get(f) + " " + hits.get(h)[0] + " " + hits.get(h)[1]);
      }
    }
    assertEquals(0, json.stream().filter(j -> j.endsWith(" 0")).count(), "the model found abcd inside a file");

    // Chunks of 4 KiB in tasks of 256: dozens of small files share a chunk; tiny chunks pack none.
    for (String[] tuning : List.of(new String[] {"--chunk-size", "4096", "--task-size", "256", "--buffers", "2"},
        new String[] {"--chunk-size", "64", "--task-size", "16", "--buffers", "3"})) {
      String context = String.join(" ", tuning);
      assertArrayEquals(lines.toByteArray(), run(tuning, "-f", patterns.toString(), tree.toString()).out, context);
      assertArrayEquals(firstTwo.toByteArray(), run(tuning, "-m", "2", "-f", patterns.toString(), tree.toString()).out,
          context);
      assertEquals(counts.toString(), text(run(tuning, "-c", "-f", patterns.toString(), tree.toString())), context);
      assertEquals(countsUpToTwo.toString(), text(run(tuning, "-c", "-m", "2", "-f", patterns.toString(),
          tree.toString())), context);
      assertEquals(withMatch.toString(), text(run(tuning, "-l", "-f", patterns.toString(), tree.toString())), context);
      assertEquals(withoutMatch.toString(), text(run(tuning, "-L", "-f", patterns.toString(), tree.toString())),
          context);
      Raw quiet = run(tuning, "-q", "-f", patterns.toString(), tree.toString());
      assertEquals(0, quiet.status, context);
      assertEquals(0, quiet.out.length, context);
      Raw boundary = run(tuning, "-c", "-e", "abcd", tree.toString());
      assertEquals(1, boundary.status, context + ": abcd matched across two files");
      List<String> actualJson = new ArrayList<>();
      for (String line : text(run(tuning, "--json", "-f", patterns.toString(), tree.toString())).lines().toList()) {
        JsonNode node = Json.MAPPER.readTree(line);
        actualJson.add(node.get("path").asText() + " " + node.get("offset").asLong() + " " + node.get("pattern_id").asInt());
      }
      assertEquals(json, actualJson, context);
    }
  }

  private static byte[] bytes(Random r, int length) {
    byte[] bytes = new byte[length];
    r.nextBytes(bytes);
    for (int i = 0; i + 6 < length; i += 97) {
      System.arraycopy("String".getBytes(StandardCharsets.US_ASCII), 0, bytes, i, 6);
    }
    return bytes;
  }

  private static String text(Raw raw) {
    return new String(raw.out, StandardCharsets.ISO_8859_1);
  }

  private record Raw(int status, byte[] out, String err) {}

  private static Raw run(String[] tuning, String... args) {
    List<String> all = new ArrayList<>(List.of("scan", "--backend=reference"));
    all.addAll(List.of(tuning));
    all.addAll(List.of(args));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CliRun run = CliRun.withStdout(out, all.toArray(String[]::new));
    return new Raw(run.status(), out.toByteArray(), run.err());
  }
}
