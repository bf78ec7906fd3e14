package dev.vyre.cli.serve;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * A generated tree that {@code vyre serve} scans before its first client, so that the client's scan
 * runs in compiled code: a fresh JVM runs its first scans of a tree in the interpreter and in code
 * compiled for the first profiles, much slower than the later ones (docs/BENCHMARKS.md,
 * "Twenty-third session: the service warms itself (dev VM)"). The tree holds
 * identifier-like words in small files (the per-file path) and a few large ones (chunks scanned in
 * lanes), and the patterns are words of the same vocabulary, so that the passes report matches
 * through every output path a client's scan takes. The small files lie in nested directories, as a
 * source tree's do, so that the walk's recursion is compiled too (with flat directories a real tree's
 * first scans still compiled it).
 */
final class ServiceWarmUp implements AutoCloseable {

  private static final int WORDS = 2000;
  private static final int PATTERNS = 100;
  private static final int SMALL_FILES = 3000;
  /** Directories a level, three levels deep. */
  private static final int FAN_OUT = 8;
  private static final int LARGE_FILES = 2;
  private static final int LARGE_FILE_BYTES = 4 << 20;

  private final Path root;
  private final Path tree;
  private final Path patterns;
  private final long bytes;

  private ServiceWarmUp(Path root, Path tree, Path patterns, long bytes) {
    this.root = root;
    this.tree = tree;
    this.patterns = patterns;
    this.bytes = bytes;
  }

  /** Writes the tree into a new private temporary directory (the same on every call: a fixed seed). */
  static ServiceWarmUp generate() throws IOException {
    Path root = Files.createTempDirectory("vyre-serve-warm-up");
    try {
      SplittableRandom random = new SplittableRandom(0x7679_7265L);
      List<String> words = new ArrayList<>(WORDS);
      for (int i = 0; i < WORDS; i++) {
        StringBuilder word = new StringBuilder();
        for (int length = 6 + random.nextInt(9); word.length() < length; ) {
          word.append((char) ((word.isEmpty() || random.nextInt(5) > 0 ? 'a' : 'A') + random.nextInt(26)));
        }
        words.add(word.toString());
      }
      Path tree = Files.createDirectory(root.resolve("tree"));
      long bytes = 0;
      for (int f = 0; f < SMALL_FILES; f++) {
        Path directory = Files.createDirectories(tree.resolve("a" + f % FAN_OUT).resolve("b" + f / FAN_OUT % FAN_OUT)
            .resolve("c" + f / (FAN_OUT * FAN_OUT) % FAN_OUT));
        bytes += write(directory.resolve("f" + f + ".txt"), words, random, 256 + random.nextInt(16 << 10));
      }
      for (int f = 0; f < LARGE_FILES; f++) {
        bytes += write(tree.resolve("large" + f + ".txt"), words, random, LARGE_FILE_BYTES);
      }
      Path patterns = root.resolve("patterns.txt");
      Files.write(patterns, words.subList(0, PATTERNS), StandardCharsets.UTF_8);
      return new ServiceWarmUp(root, tree, patterns, bytes);
    } catch (IOException | RuntimeException e) {
      delete(root);
      throw e;
    }
  }

  /** Lines of words, about {@code size} bytes; returns the bytes written. */
  private static long write(Path file, List<String> words, SplittableRandom random, int size) throws IOException {
    StringBuilder text = new StringBuilder(size + 64);
    while (text.length() < size) {
      text.append(words.get(random.nextInt(words.size()))).append(random.nextInt(8) == 0 ? '\n' : ' ');
    }
    byte[] content = text.toString().getBytes(StandardCharsets.US_ASCII);
    Files.write(file, content);
    return content.length;
  }

  /** The scan command lines of pass {@code pass}, in turn: counting, listing, printing the matching lines. */
  String[] arguments(int pass) {
    String mode = switch (pass % 3) {
      case 0 -> "--count";
      case 1 -> "--files-with-matches";
      default -> "--line-number";
    };
    return new String[] {mode, "-F", "-f", patterns.toString(), tree.toString()};
  }

  /** The bytes a pass scans. */
  long bytes() {
    return bytes;
  }

  /** The directory the passes run in. */
  Path directory() {
    return root;
  }

  /** Deletes the tree. */
  @Override
  public void close() {
    delete(root);
  }

  private static void delete(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("deleting the warm-up tree " + root, e);
    }
  }
}
