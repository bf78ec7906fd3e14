package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.runtime.Megakernel;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.FileResult;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import dev.vyre.scan.ScanSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Differential test of the whole scan engine ({@link ScanJob} on the reference backend) against
 * {@link #model}, a matcher written here that shares no code with the scan package (not even its
 * case folding): adversarial pattern sets (overlapping, prefixes and suffixes of each other,
 * duplicates, control and non-ASCII bytes, every byte value, longer than a chunk or a task) over
 * files whose matches straddle many small chunks and tasks, with planted occurrences. Each try
 * is one seed, printed with the case on failure, so a failure replays exactly.
 */
class ScanDifferentialTest {

  private static Megakernel kernel;
  private static int jobs;

  private static synchronized Megakernel kernel() {
    // Each job allocates its resources for the kernel's lifetime: start a fresh kernel now and then.
    if (kernel != null && jobs++ % 64 == 63) {
      stopKernel();
    }
    if (kernel == null) {
      kernel = TestBackends.scanKernel();
    }
    return kernel;
  }

  @AfterContainer
  static synchronized void stopKernel() {
    if (kernel != null) {
      kernel.close();
      kernel = null;
    }
  }

  /** A generated case. */
  record Case(List<byte[]> patterns, boolean caseInsensitive, List<byte[]> files, ScanOptions options) {
    @Override
    public String toString() {
      HexFormat hex = HexFormat.of();
      return "Case[patterns=" + patterns.stream().map(hex::formatHex).toList() + ", ci=" + caseInsensitive
          + ", files=" + files.stream().map(f -> f.length <= 64 ? hex.formatHex(f) : f.length + " bytes").toList()
          + ", " + options + "]";
    }
  }

  /**
   * Every occurrence of every pattern, sorted by start then id, as {@code start:id} strings; ASCII
   * letters compared case-insensitively when asked. Deliberately naive and separate from the code
   * under test.
   */
  static List<String> model(List<byte[]> patterns, boolean caseInsensitive, byte[] input) {
    List<String> hits = new ArrayList<>();
    for (int start = 0; start < input.length; start++) {
      for (int id = 0; id < patterns.size(); id++) {
        byte[] p = patterns.get(id);
        boolean match = start + p.length <= input.length;
        for (int i = 0; match && i < p.length; i++) {
          match = sameByte(p[i], input[start + i], caseInsensitive);
        }
        if (match) {
          hits.add(start + ":" + id);
        }
      }
    }
    return hits;
  }

  private static boolean sameByte(byte a, byte b, boolean caseInsensitive) {
    if (a == b) {
      return true;
    }
    if (!caseInsensitive) {
      return false;
    }
    char x = (char) (a & 0xFF);
    char y = (char) (b & 0xFF);
    boolean letters = x < 128 && y < 128 && Character.isLetter(x) && Character.isLetter(y);
    return letters && Character.toLowerCase(x) == Character.toLowerCase(y);
  }

  private static final byte[][] ALPHABETS = {
      {'a', 'b'},
      {'a', 'b', 'A', 'B', '\n', '\r'},
      {0x00, 0x0A, 0x0D, (byte) 0xFF, 'a', 'A', (byte) 0xC3, (byte) 0xA9, 'z', 'Z', '@', '['},
      null, // every byte value
  };

  static Case generate(long seed) {
    Random r = new Random(seed);
    byte[] alphabet = ALPHABETS[r.nextInt(ALPHABETS.length)];
    boolean ci = r.nextBoolean();
    List<byte[]> patterns = new ArrayList<>();
    int patternCount = 1 + r.nextInt(r.nextInt(10) < 8 ? 6 : 40);
    boolean longPatterns = r.nextInt(6) == 0;
    while (patterns.size() < patternCount) {
      int kind = patterns.isEmpty() ? 0 : r.nextInt(6);
      byte[] p = switch (kind) {
        case 1 -> patterns.get(r.nextInt(patterns.size())).clone(); // duplicate
        case 2 -> { // prefix of another
          byte[] other = patterns.get(r.nextInt(patterns.size()));
          yield java.util.Arrays.copyOf(other, 1 + r.nextInt(other.length));
        }
        case 3 -> { // suffix of another
          byte[] other = patterns.get(r.nextInt(patterns.size()));
          yield java.util.Arrays.copyOfRange(other, r.nextInt(other.length), other.length);
        }
        default -> random(r, alphabet, 1 + (longPatterns && r.nextBoolean() ? r.nextInt(300) : r.nextInt(6)));
      };
      patterns.add(p);
    }
    if (r.nextInt(8) == 0) {
      // A pattern that uses almost every byte value: the byte classes of the unused few matter.
      byte[] all = new byte[256];
      int n = 0;
      boolean lowercaseToo = r.nextBoolean();
      for (int b = 0; b < 256; b++) {
        if (!(b >= 'A' && b <= 'Z' && r.nextInt(4) == 0) && !(lowercaseToo && b >= 'a' && b <= 'z' && r.nextInt(8) == 0)) {
          all[n++] = (byte) b;
        }
      }
      patterns.add(java.util.Arrays.copyOf(all, n));
      patterns.add(new byte[] {all[0]});
      alphabet = null;
    }
    List<byte[]> files = new ArrayList<>();
    int fileCount = r.nextInt(5);
    for (int f = 0; f < fileCount; f++) {
      int length = switch (r.nextInt(8)) {
        case 0 -> 0;
        case 1 -> 1 + r.nextInt(3);
        case 2 -> 1500 + r.nextInt(5000);
        default -> r.nextInt(400);
      };
      byte[] file = random(r, alphabet, length);
      // Plant occurrences (sometimes case-flipped) at random places.
      int plants = length == 0 ? 0 : r.nextInt(1 + length / 8);
      for (int k = 0; k < plants; k++) {
        byte[] p = patterns.get(r.nextInt(patterns.size()));
        int at = r.nextInt(length);
        for (int i = 0; i < p.length && at + i < length; i++) {
          byte b = p[i];
          if (r.nextInt(3) == 0 && (b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z')) {
            b ^= 0x20;
          }
          file[at + i] = b;
        }
      }
      files.add(file);
    }
    long task = r.nextInt(5) == 0 ? 256 + r.nextInt(4096) : 1 + r.nextInt(48);
    int tasksPerChunk = 1 + r.nextInt(4);
    ScanOptions options = new ScanOptions(task * tasksPerChunk, task, 1 + r.nextInt(4), true, r.nextBoolean(),
        r.nextBoolean());
    if (r.nextInt(8) == 0) {
      options = options.withKeepHits(false);
    }
    return new Case(patterns, ci, files, options);
  }

  private static byte[] random(Random r, byte[] alphabet, int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = alphabet == null ? (byte) r.nextInt(256) : alphabet[r.nextInt(alphabet.length)];
    }
    return bytes;
  }

  @Property(tries = 300)
  void theScanFindsExactlyWhatTheModelFinds(@ForAll long seed) throws Exception {
    check(generate(seed));
  }

  static void check(Case c) throws IOException {
    Path dir = Files.createTempDirectory("scandiff");
    try {
      List<ScanFile> files = new ArrayList<>();
      for (int i = 0; i < c.files().size(); i++) {
        Path path = Files.write(dir.resolve("f" + i), c.files().get(i));
        files.add(new ScanFile(path, c.files().get(i).length));
      }
      PatternSet patterns = PatternSet.of(c.patterns(), c.caseInsensitive(), "test");
      List<FileResult> results = new ArrayList<>();
      ScanSummary summary;
      try (ScanJob job = new ScanJob(kernel(), AhoCorasickCompiler.compile(patterns), c.options())) {
        summary = job.run(files, results::add);
      }
      assertEquals(files.size(), results.size(), c.toString());
      long total = 0;
      for (int i = 0; i < results.size(); i++) {
        FileResult result = results.get(i);
        List<String> expected = model(c.patterns(), c.caseInsensitive(), c.files().get(i));
        total += expected.size();
        assertEquals(files.get(i).path(), result.file().path(), c.toString());
        assertEquals(null, result.error(), c.toString());
        assertEquals(expected.size(), result.matches(), "file " + i + " count, " + c);
        if (c.options().keepHits()) {
          List<String> actual = new ArrayList<>();
          for (int h = 0; h < result.hits().size(); h++) {
            actual.add(result.hits().start(h) + ":" + result.hits().patternId(h));
          }
          assertEquals(expected, actual, "file " + i + ", " + c);
        }
      }
      assertEquals(total, summary.matches(), c.toString());
      assertEquals(c.files().stream().mapToLong(f -> f.length).sum(), summary.bytes(), c.toString());
    } finally {
      try (var paths = Files.walk(dir)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
