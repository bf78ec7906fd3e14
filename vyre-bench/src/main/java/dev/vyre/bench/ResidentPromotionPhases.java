package dev.vyre.bench;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.KernelResourcePool;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ResidentCorpus;
import dev.vyre.scan.ResidentScan;
import dev.vyre.scan.ResidentSizing;
import dev.vyre.scan.ScanCorpus;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanFilter;
import dev.vyre.scan.ScanOptions;
import dev.vyre.scan.ScanSink;
import dev.vyre.scan.ScanSummary;
import dev.vyre.scan.ScanTargets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A hot DFA table over a corpus held in the kernel's memory, as {@code vyre serve --resident} holds
 * one: {@link #SCANS} counting scans of a {@link ScanCorpus} of {@link ScanCorpus#DEFAULT_LITERALS}
 * literals. Read from memory rather than a file, the scans run at the DFA's own pace, where a
 * promoted table can show. Adaptive, each scan asks the launch policy at its start whether to
 * promote its table, as the service's resident scans do (docs/POLICY.md, "Promotion"); a fixed
 * configuration keeps the table interpreted.
 */
final class ResidentPromotionPhases implements AdaptWorkload {

  static final int SCANS = 8;

  private final String backend;
  private final DfaTable table;
  private final Path directory;
  private final List<ScanFile> targets;
  private ScanOptions options;
  private ResidentCorpus corpus;

  ResidentPromotionPhases(AdaptBench.Settings settings) throws IOException {
    List<String> literals = ScanCorpus.literals(ScanCorpus.DEFAULT_LITERALS, ScanCorpus.DEFAULT_SEED);
    this.backend = settings.backend();
    this.table = AhoCorasickCompiler.compile(PatternSet.fromArguments(literals, false));
    this.directory = Files.createTempDirectory("vyre-bench-adapt-resident");
    try {
      ScanCorpus.writeRepeating(directory.resolve("corpus.txt"), settings.corpusBytes(),
          ScanCorpus.repeatedBlock(settings.corpusBytes(), literals, ScanCorpus.DEFAULT_SEED));
      this.targets = ScanTargets.walk(List.of(directory)).files();
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  @Override
  public String name() {
    return "resident";
  }

  /** Starts the kernel with a resident scan's ring and loads the corpus into its memory. */
  @Override
  public Megakernel boot() {
    // Ring slots for the backend named ("auto" has a GPU's, the most a scan needs), scans with the one chosen.
    Megakernel kernel = Megakernel.builder().backend(backend).slots(ResidentSizing.ringSlots(countingOptions(backend)))
        .singlePriority(Priority.NORMAL).bootstrap();
    options = countingOptions(kernel.backendName());
    try {
      corpus = new ResidentCorpus(new KernelResourcePool(kernel), directory, ScanFilter.NONE,
          ResidentCorpus.DEFAULT_SEGMENT_BYTES, table.maxPatternLength());
    } catch (RuntimeException e) {
      kernel.close();
      throw e;
    }
    return kernel;
  }

  private ScanOptions countingOptions(String backendName) {
    return ScanOptions.forBackend(backendName).withKeepHits(false).fittingHitCounter(table);
  }

  @Override
  public void warmUp(Megakernel kernel) {
    scan(false);
  }

  @Override
  public Pass run(Megakernel kernel) {
    return run(kernel, false);
  }

  @Override
  public Pass run(Megakernel kernel, boolean adaptive) {
    long bytes = 0;
    long nanos = 0;
    long matches = -1;
    long promotedBefore = kernel.promotedTasks();
    for (int i = 0; i < SCANS; i++) {
      ScanSummary summary = scan(adaptive);
      if (matches >= 0 && summary.matches() != matches) {
        throw PipelineException.backend("resident scans of one corpus counted " + matches + " and " + summary.matches()
            + " matches. Fix: report this bug");
      }
      matches = summary.matches();
      bytes += summary.bytes();
      nanos += summary.nanos();
    }
    Map<String, Double> measures = new LinkedHashMap<>();
    measures.put("gb_per_s", bytes / (double) nanos);
    measures.put("promoted_tasks", (double) (kernel.promotedTasks() - promotedBefore));
    measures.put("matches", (double) matches);
    return new Pass(measures, nanos / 1e9);
  }

  /** One counting scan of the corpus; {@code policy}: the scan may promote its table if the policy says so. */
  private ScanSummary scan(boolean policy) {
    try (ResidentScan scan = ResidentScan.open(corpus, table, options, targets, policy)) {
      if (scan == null) {
        throw PipelineException.backend("the resident corpus lost a file of " + directory + ". Fix: report this bug");
      }
      return scan.run(targets, ScanSink.collecting(false, result -> {
        if (result.failed()) {
          throw PipelineException.backend("a resident scan of " + result.file().path() + " failed: " + result.error()
              + ". Fix: report this bug");
        }
      }));
    }
  }

  @Override
  public String describe(String measure, double value) {
    return switch (measure) {
      case "gb_per_s" -> String.format("scans %.3f GB/s", value);
      case "promoted_tasks" -> String.format("%.0f tasks promoted", value);
      default -> String.format("%.0f matches", value);
    };
  }

  /** Frees the corpus's memory, before the kernel closes. */
  @Override
  public void detach() {
    if (corpus != null) {
      corpus.close();
      corpus = null;
    }
  }

  /** Deletes the corpus's file and directory. */
  @Override
  public void close() {
    try {
      Files.deleteIfExists(directory.resolve("corpus.txt"));
      Files.deleteIfExists(directory);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
