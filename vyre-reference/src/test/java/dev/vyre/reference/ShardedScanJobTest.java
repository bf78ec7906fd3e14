package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.FileResult;
import dev.vyre.scan.HitList;
import dev.vyre.scan.KernelResourcePool;
import dev.vyre.scan.NaiveMatcher;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import dev.vyre.scan.ScanSink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link ScanJob} over several kernels, one per device (on the reference backend each device is
 * a label for the CPU), gives what one kernel gives, byte for byte, whatever the sink asks for
 * (every match, counts, the files with a match, the first matches of each): a generated tree of
 * many small files packed into shared chunks, a few files of many chunks, dense matches that cross
 * every chunk boundary, and a file that vanished. Every kernel scans some of it. Backend-neutral
 * ({@link TestBackends}): on CUDA it runs over the usable devices, and needs two.
 */
class ShardedScanJobTest {

  private static final PatternSet PATTERNS = PatternSet.of(List.of(bytes("ab"), bytes("aba"), bytes("b"),
      bytes("needle"), bytes("bab\nab")), false, "t");
  private static final int MAX_COUNT = 7;

  private static Megakernel single;
  private static List<Megakernel> sharded;

  @TempDir static Path dir;
  private static List<ScanFile> tree;
  private static List<byte[]> contents;

  @BeforeAll
  static void start() throws IOException {
    int[] devices = TestBackends.shardDevices();
    Assumptions.assumeTrue(devices.length >= 2, "ShardedScanJobTest needs two devices of backend "
        + TestBackends.selected().name() + "; it sees " + devices.length);
    // The single kernel is also the first shard: a GPU runs one persistent kernel at a time, so a second
    // kernel on device 0 would wait for the first to exit.
    single = TestBackends.scanKernel(devices[0]);
    sharded = new ArrayList<>(List.of(single));
    for (int i = 1; i < devices.length; i++) {
      sharded.add(TestBackends.scanKernel(devices[i]));
    }
    writeTree();
  }

  @AfterAll
  static void stop() {
    // All at once: on CUDA a kernel closed while another device's kernel runs waits for that one (Megakernel.closeAll).
    if (sharded != null) {
      Megakernel.closeAll(sharded);
    } else if (single != null) {
      single.close();
    }
  }

  /** 150 small files (some empty), three of dozens of chunks, dense "ab" text, and a file that is gone. */
  private static void writeTree() throws IOException {
    Random random = new Random(26);
    tree = new ArrayList<>();
    contents = new ArrayList<>();
    for (int i = 0; i < 154; i++) {
      int size = i % 50 == 7 ? 60_000 + random.nextInt(5_000) : i % 13 == 0 ? 0 : random.nextInt(900);
      byte[] text = new byte[size];
      for (int b = 0; b < size; b++) {
        text[b] = (byte) "abab\nabneedle".charAt(random.nextInt(13));
      }
      Path path = dir.resolve(String.format("t%03d", i));
      Files.write(path, text);
      tree.add(new ScanFile(path, size));
      contents.add(text);
    }
    tree.add(60, new ScanFile(dir.resolve("vanished"), 100));
    contents.add(60, null);
  }

  /** What the sink asks for: {@code vyre scan}'s default, -c, -l and -m. */
  private enum Mode { EVERY_MATCH, COUNT, FILES_WITH_MATCHES, MAX_COUNT }

  @Test
  void severalKernelsGiveWhatOneGives() {
    for (Mode mode : Mode.values()) {
      for (boolean staged : new boolean[] {false, true}) {
        ScanOptions options = new ScanOptions(2048, 512, 3, mode != Mode.COUNT, staged, false);
        String one = scan(List.of(single), mode, options);
        long[] done = sharded.stream().mapToLong(Megakernel::doneCount).toArray();
        String several = scan(sharded, mode, options);
        assertEquals(one, several, mode + ", staged " + staged);
        for (int k = 0; k < done.length; k++) {
          assertTrue(sharded.get(k).doneCount() > done[k], "kernel " + k + " scanned nothing in " + mode);
        }
      }
    }
  }

  /** The output of every match is the naive oracle's, so the comparison above compares something right. */
  @Test
  void everyMatchIsTheOraclesMatches() {
    String output = scan(sharded, Mode.EVERY_MATCH, new ScanOptions(2048, 512, 3, true, false, false));
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < tree.size(); i++) {
      String name = tree.get(i).path().getFileName().toString();
      if (contents.get(i) == null) {
        expected.append(name).append(" failed\n");
        continue;
      }
      var hits = NaiveMatcher.findAll(PATTERNS, contents.get(i), i);
      hits.forEach(hit -> expected.append(name).append(':').append(hit.start()).append(':').append(hit.patternId()).append('\n'));
      expected.append(name).append(" ").append(hits.size()).append('\n');
    }
    assertEquals(expected.toString(), output);
  }

  /** Runs one job over {@code kernels} and renders what its sink saw as {@code vyre scan} would print it. */
  private static String scan(List<Megakernel> kernels, Mode mode, ScanOptions options) {
    DfaTable table = AhoCorasickCompiler.compile(PATTERNS);
    StringBuilder out = new StringBuilder();
    try (ScanJob job = new ScanJob(kernels.stream().map(KernelResourcePool::new).toList(), table, options)) {
      job.run(tree, new ScanSink() {
        @Override
        public boolean found(ScanFile file, HitList hits, long total) {
          if (hits != null && mode != Mode.FILES_WITH_MATCHES) {
            long before = total - hits.size();
            int shown = mode == Mode.MAX_COUNT ? (int) Math.max(0, Math.min(hits.size(), MAX_COUNT - before)) : hits.size();
            for (int i = 0; i < shown; i++) {
              out.append(file.path().getFileName()).append(':').append(hits.start(i)).append(':').append(hits.patternId(i))
                  .append('\n');
            }
          }
          return mode == Mode.EVERY_MATCH || mode == Mode.COUNT || mode == Mode.MAX_COUNT && total < MAX_COUNT;
        }

        @Override
        public void finished(FileResult result) {
          String name = result.file().path().getFileName().toString();
          if (result.failed()) {
            out.append(name).append(" failed\n");
          } else if (mode == Mode.FILES_WITH_MATCHES) {
            out.append(result.matches() > 0 ? name + "\n" : "");
          } else {
            long matches = mode == Mode.MAX_COUNT ? Math.min(MAX_COUNT, result.matches()) : result.matches();
            out.append(name).append(' ').append(matches).append('\n');
          }
        }
      });
    }
    return out.toString();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
