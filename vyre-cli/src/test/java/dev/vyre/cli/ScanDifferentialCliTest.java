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
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vyre scan} in-process against a naive model of its documented output: every occurrence
 * as {@code path:offset:pattern} (the pattern's bytes as given, overlapping matches included,
 * sorted by offset then pattern order per file, files in walk order), {@code path:count} with
 * {@code --count}, one object per match with {@code --json} (the pattern exact, through
 * {@code pattern_bytes} where it is not UTF-8), exit status 0 or 1. Patterns come
 * from a file with LF and CRLF line ends and duplicates, holding control and non-ASCII bytes;
 * files include empty ones, ones without a final newline, CRLF lines and a long line; tiny
 * chunks and tasks put boundaries everywhere. Seeded, so a failure replays.
 */
class ScanDifferentialCliTest {

  private static final byte[] ALPHABET = {'a', 'b', 'A', '\r', '\n', 0x00, (byte) 0xFF, (byte) 0xC3, (byte) 0xA9};

  @TempDir Path dir;

  private static byte[] random(Random r, int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = ALPHABET[r.nextInt(ALPHABET.length)];
    }
    return bytes;
  }

  /** Start offsets and ids of every occurrence, as (start, id) pairs sorted by start then id. */
  private static List<long[]> model(List<byte[]> patterns, boolean ignoreCase, byte[] input) {
    List<long[]> hits = new ArrayList<>();
    for (int start = 0; start < input.length; start++) {
      for (int id = 0; id < patterns.size(); id++) {
        byte[] p = patterns.get(id);
        boolean match = start + p.length <= input.length;
        for (int i = 0; match && i < p.length; i++) {
          int x = p[i] & 0xFF;
          int y = input[start + i] & 0xFF;
          match = x == y || ignoreCase && x < 128 && y < 128 && Character.isLetter(x)
              && Character.toLowerCase(x) == Character.toLowerCase(y);
        }
        if (match) {
          hits.add(new long[] {start, id});
        }
      }
    }
    return hits;
  }

  @Test
  void linesCountsAndJsonEqualTheModel() throws IOException {
    for (long seed = 1; seed <= 12; seed++) {
      check(seed);
    }
  }

  private void check(long seed) throws IOException {
    Random r = new Random(seed);
    Path root = Files.createDirectory(dir.resolve("case" + seed));
    Path tree = Files.createDirectory(root.resolve("tree"));
    // Patterns: no LF, no final CR (a line end), never empty; duplicates and prefixes welcome.
    List<byte[]> patterns = new ArrayList<>();
    int count = 1 + r.nextInt(6);
    while (patterns.size() < count) {
      byte[] p = !patterns.isEmpty() && r.nextInt(4) == 0 ? patterns.get(r.nextInt(patterns.size())).clone()
          : random(r, 1 + r.nextInt(r.nextInt(5) == 0 ? 40 : 4));
      p = Arrays.copyOf(p, p.length);
      for (int i = 0; i < p.length; i++) {
        if (p[i] == '\n') {
          p[i] = 'b';
        }
      }
      if (p[p.length - 1] == '\r') {
        p[p.length - 1] = 'a';
      }
      patterns.add(p);
    }
    ByteArrayOutputStream patternFile = new ByteArrayOutputStream();
    for (int i = 0; i < patterns.size(); i++) {
      patternFile.write(patterns.get(i));
      if (i < patterns.size() - 1 || r.nextBoolean()) {
        patternFile.write(r.nextBoolean() ? new byte[] {'\r', '\n'} : new byte[] {'\n'});
      }
    }
    Path patternPath = Files.write(root.resolve("patterns"), patternFile.toByteArray());
    boolean ignoreCase = r.nextBoolean();

    List<Path> paths = new ArrayList<>();
    List<byte[]> contents = new ArrayList<>();
    int files = 1 + r.nextInt(6);
    for (int f = 0; f < files; f++) {
      byte[] content = switch (r.nextInt(5)) {
        case 0 -> new byte[0];
        case 1 -> ("ab\r\nAb\r\n" + "a".repeat(r.nextInt(3))).getBytes(StandardCharsets.ISO_8859_1);
        case 2 -> random(r, 3000 + r.nextInt(3000)); // a long line, probably
        default -> random(r, r.nextInt(300));
      };
      for (int k = 0; k < content.length / 16; k++) {
        byte[] p = patterns.get(r.nextInt(patterns.size()));
        int at = r.nextInt(content.length);
        System.arraycopy(p, 0, content, at, Math.min(p.length, content.length - at));
      }
      Path sub = f % 3 == 2 ? Files.createDirectories(tree.resolve("sub")) : tree;
      Path path = Files.write(sub.resolve("f" + f), content);
      paths.add(path);
      contents.add(content);
    }
    // grep -r order: each directory's entries in name order ("f0" < "f1" < "sub").
    List<Integer> order = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      order.add(f);
    }
    order.sort((x, y) -> paths.get(x).toString().compareTo(paths.get(y).toString()));

    long task = 1 + r.nextInt(9);
    String[] tuning = {"--chunk-size", Long.toString(task * (1 + r.nextInt(3))), "--task-size", Long.toString(task),
        "--buffers", Integer.toString(1 + r.nextInt(3))};
    String context = "seed " + seed + ", patterns " + patterns.stream().map(p -> Arrays.toString(p)).toList()
        + ", ignoreCase " + ignoreCase;

    ByteArrayOutputStream expectedLines = new ByteArrayOutputStream();
    StringBuilder expectedCounts = new StringBuilder();
    List<String> expectedJson = new ArrayList<>();
    long total = 0;
    for (int f : order) {
      List<long[]> hits = model(patterns, ignoreCase, contents.get(f));
      total += hits.size();
      expectedCounts.append(paths.get(f)).append(':').append(hits.size()).append('\n');
      for (long[] hit : hits) {
        expectedLines.write((paths.get(f) + ":" + hit[0] + ":").getBytes(StandardCharsets.UTF_8));
        expectedLines.write(patterns.get((int) hit[1]));
        expectedLines.write('\n');
        expectedJson.add(paths.get(f) + " " + hit[0] + " " + hit[1] + " "
            + HexFormat.of().formatHex(patterns.get((int) hit[1])));
      }
    }
    int status = total > 0 ? 0 : 1;

    Raw lines = run(tuning, ignoreCase, "-f", patternPath.toString(), tree.toString());
    assertEquals(status, lines.status, context + ": " + lines.err);
    assertArrayEquals(expectedLines.toByteArray(), lines.out, context);

    Raw counts = run(tuning, ignoreCase, "--count", "-f", patternPath.toString(), tree.toString());
    assertEquals(status, counts.status, context + ": " + counts.err);
    assertEquals(expectedCounts.toString(), new String(counts.out, StandardCharsets.UTF_8), context);

    Raw json = run(tuning, ignoreCase, "--json", "-f", patternPath.toString(), tree.toString());
    assertEquals(status, json.status, context + ": " + json.err);
    List<String> actualJson = new ArrayList<>();
    for (String line : new String(json.out, StandardCharsets.UTF_8).lines().toList()) {
      JsonNode node = Json.MAPPER.readTree(line);
      // The exact pattern: its base64 bytes when it is not UTF-8, else its string.
      byte[] pattern = node.has("pattern_bytes") ? Base64.getDecoder().decode(node.get("pattern_bytes").asText())
          : node.get("pattern").asText().getBytes(StandardCharsets.UTF_8);
      actualJson.add(node.get("path").asText() + " " + node.get("offset").asLong() + " "
          + node.get("pattern_id").asInt() + " " + HexFormat.of().formatHex(pattern));
    }
    assertEquals(expectedJson, actualJson, context);
  }

  private record Raw(int status, byte[] out, String err) {}

  private static Raw run(String[] tuning, boolean ignoreCase, String... args) {
    List<String> all = new ArrayList<>(List.of("scan", "--backend=reference"));
    all.addAll(List.of(tuning));
    if (ignoreCase) {
      all.add("-i");
    }
    all.addAll(List.of(args));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CliRun run = CliRun.withStdout(out, all.toArray(String[]::new));
    return new Raw(run.status(), out.toByteArray(), run.err());
  }
}
