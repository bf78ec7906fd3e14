package dev.vyre.bench;

import dev.vyre.runtime.Megakernel;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanSummary;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A scan whose match density jumps from sparse to dense mid-corpus: a file of lowercase text whose
 * first half holds one match of {@link #PATTERN} per {@link #SPARSE_EVERY} bytes and whose second
 * half one per {@link #DENSE_EVERY}: the scan's tasks turn from reading to writing hits, and a
 * chunk whose hits overflow the buffer the launch policy sized is rescanned (the rescans are
 * reported). The scan runs with the backend's default options.
 */
final class DensityScanPhases extends CorpusScanLoad {

  /** Upper case, so the lowercase text around it never matches by chance. */
  static final String PATTERN = "VYRE";
  static final int SPARSE_EVERY = 1 << 16;
  static final int DENSE_EVERY = 16;

  DensityScanPhases(AdaptBench.Settings settings) throws IOException {
    DfaTable table = AhoCorasickCompiler.compile(PatternSet.fromArguments(List.of(PATTERN), false));
    super("density", settings, table, file -> write(file, settings.corpusBytes()));
  }

  /** Lowercase letters and newlines; the pattern planted every {@link #SPARSE_EVERY}, then every {@link #DENSE_EVERY} bytes. */
  static void write(Path file, long bytes) throws IOException {
    SplittableRandom random = new SplittableRandom(0xD3_5E17L);
    byte[] pattern = PATTERN.getBytes(StandardCharsets.US_ASCII);
    ByteBuffer block = ByteBuffer.allocate(1 << 16);
    try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      for (long at = 0; at < bytes; ) {
        block.clear();
        int length = (int) Math.min(block.capacity(), bytes - at);
        for (int i = 0; i < length; i++, at++) {
          long every = at < bytes / 2 ? SPARSE_EVERY : DENSE_EVERY;
          long into = at % every;
          block.put(into < pattern.length ? pattern[(int) into] : at % 72 == 71 ? (byte) '\n' : (byte) ('a' + random.nextInt(26)));
        }
        block.flip();
        while (block.hasRemaining()) {
          out.write(block);
        }
      }
    }
  }

  @Override
  public Pass run(Megakernel kernel) {
    ScanSummary summary = scans.scan();
    Map<String, Double> measures = new LinkedHashMap<>();
    measures.put("scan_gb_per_s", summary.gigabytesPerSecond());
    measures.put("matches", (double) summary.matches());
    measures.put("rescans", (double) summary.rescans());
    return new Pass(measures, summary.nanos() / 1e9);
  }

  @Override
  public String describe(String measure, double value) {
    return switch (measure) {
      case "scan_gb_per_s" -> String.format("scan %.3f GB/s", value);
      case "matches" -> String.format("%.0f matches", value);
      default -> String.format("%.0f rescans", value);
    };
  }
}
