package dev.vyre.bench;

import dev.vyre.driver.error.NotImplementedException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.dfa.PromotedDfaLayout;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanCorpus;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import dev.vyre.scan.ScanSummary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A hot DFA table: a {@link ScanCorpus} of {@link ScanCorpus#DEFAULT_LITERALS} literals scanned
 * {@link #SCANS} times in a row by one scan job, so its table is the one every task uses. The first
 * scan is the phase in which the promotion loop finds the table hot and promotes it; the later ones
 * run on what it decided. A fixed configuration scans with the interpreted DFA_STEP throughout.
 * On a backend that cannot promote, the load says so instead of measuring ({@link #unavailableOn}).
 */
final class PromotionScanPhases implements AdaptWorkload {

  static final int SCANS = 4;

  private final AdaptBench.Settings settings;
  private final Path corpus;
  private final DfaTable table;
  private ScanJob job;

  PromotionScanPhases(AdaptBench.Settings settings) throws IOException {
    this.settings = settings;
    List<String> literals = ScanCorpus.literals(ScanCorpus.DEFAULT_LITERALS, ScanCorpus.DEFAULT_SEED);
    this.table = AhoCorasickCompiler.compile(PatternSet.fromArguments(literals, false));
    this.corpus = Files.createTempFile("vyre-bench-adapt-promotion", ".txt");
    try {
      ScanCorpus.write(corpus, settings.corpusBytes(), literals, ScanCorpus.DEFAULT_SEED);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(corpus);
      throw e;
    }
  }

  @Override
  public String name() {
    return "promotion";
  }

  @Override
  public Megakernel boot() {
    Megakernel kernel = Megakernel.builder().backend(settings.backend()).slots(options(settings.backend()).ringSlots())
        .singlePriority(Priority.NORMAL).bootstrap();
    job = new ScanJob(kernel, table, options(kernel.backendName()));
    return kernel;
  }

  private ScanOptions options(String backend) {
    return ScanOptions.forBackend(backend).fittedTo(settings.corpusBytes()).fittingHitCounter(table);
  }

  /** Promotes a copy of the table on a resource of its own and demotes it: the backend's refusal, or null. */
  @Override
  public String unavailableOn(Megakernel kernel) {
    int probe = kernel.allocateResource(table.byteSize(), ResourcePlacement.DEVICE);
    kernel.writeResource(probe, 0, table.segment());
    try {
      kernel.promoteDfaTable(probe, ((PromotedDfaLayout.Compact) PromotedDfaLayout.compact(table.segment())).table());
      kernel.demoteDfaTable(probe);
      return null;
    } catch (NotImplementedException e) {
      return e.getMessage();
    }
  }

  @Override
  public void warmUp(Megakernel kernel) {
    scan();
  }

  @Override
  public Pass run(Megakernel kernel) {
    ScanSummary first = scan();
    long hotBytes = 0;
    long hotNanos = 0;
    for (int i = 1; i < SCANS; i++) {
      ScanSummary hot = scan();
      hotBytes += hot.bytes();
      hotNanos += hot.nanos();
    }
    Map<String, Double> measures = new LinkedHashMap<>();
    measures.put("first_scan_gb_per_s", first.gigabytesPerSecond());
    measures.put("hot_scans_gb_per_s", hotBytes / (double) hotNanos);
    measures.put("matches", (double) first.matches());
    return new Pass(measures, (first.nanos() + hotNanos) / 1e9);
  }

  private ScanSummary scan() {
    return job.run(List.of(new ScanFile(corpus, settings.corpusBytes())), result -> {});
  }

  @Override
  public String describe(String measure, double value) {
    return switch (measure) {
      case "first_scan_gb_per_s" -> String.format("first scan %.3f GB/s", value);
      case "hot_scans_gb_per_s" -> String.format("later scans %.3f GB/s", value);
      default -> String.format("%.0f matches", value);
    };
  }

  @Override
  public void detach() {
    if (job != null) {
      job.close();
      job = null;
    }
  }

  /** Deletes the corpus. */
  @Override
  public void close() {
    try {
      Files.deleteIfExists(corpus);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
