package dev.vyre.bench;

import dev.vyre.driver.error.NotImplementedException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.dfa.PromotedDfaLayout;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanCorpus;
import dev.vyre.scan.ScanSummary;
import java.io.IOException;
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
final class PromotionScanPhases extends CorpusScanLoad {

  static final int SCANS = 4;

  PromotionScanPhases(AdaptBench.Settings settings) throws IOException {
    List<String> literals = ScanCorpus.literals(ScanCorpus.DEFAULT_LITERALS, ScanCorpus.DEFAULT_SEED);
    DfaTable table = AhoCorasickCompiler.compile(PatternSet.fromArguments(literals, false));
    super("promotion", settings, table,
        file -> ScanCorpus.write(file, settings.corpusBytes(), literals, ScanCorpus.DEFAULT_SEED));
  }

  /** Promotes a copy of the table on a resource of its own and demotes it: the backend's refusal, or null. */
  @Override
  public String unavailableOn(Megakernel kernel) {
    DfaTable table = scans.table();
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
  public Pass run(Megakernel kernel) {
    ScanSummary first = scans.scan();
    long hotBytes = 0;
    long hotNanos = 0;
    for (int i = 1; i < SCANS; i++) {
      ScanSummary hot = scans.scan();
      hotBytes += hot.bytes();
      hotNanos += hot.nanos();
    }
    Map<String, Double> measures = new LinkedHashMap<>();
    measures.put("first_scan_gb_per_s", first.gigabytesPerSecond());
    measures.put("hot_scans_gb_per_s", hotBytes / (double) hotNanos);
    measures.put("matches", (double) first.matches());
    return new Pass(measures, (first.nanos() + hotNanos) / 1e9);
  }

  @Override
  public String describe(String measure, double value) {
    return switch (measure) {
      case "first_scan_gb_per_s" -> String.format("first scan %.3f GB/s", value);
      case "hot_scans_gb_per_s" -> String.format("later scans %.3f GB/s", value);
      default -> String.format("%.0f matches", value);
    };
  }
}
