package dev.vyre.cli;

import dev.vyre.bench.ScanBench;
import dev.vyre.driver.error.InputException;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanCorpus;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vyre bench scan}: writes a {@link ScanCorpus} and its literals to disk, then measures in
 * one run {@code vyre scan}'s engine on the reference backend, on CUDA when usable, and
 * {@code grep -F -c -f patterns corpus}, all reading the corpus from the page cache. A vyre figure
 * is the median of timed runs after one untimed warm-up run (JIT, page cache), from opening the
 * file to sorted hits; bootstrapping the kernel and compiling the patterns are not timed. The
 * measuring is {@link ScanBench}'s.
 */
@Command(name = "scan", mixinStandardHelpOptions = true, description = "Scan throughput on a generated corpus: vyre scan per backend against grep -F -c.")
final class ScanBenchCommand implements Callable<Integer> {

  @Option(names = "--size", defaultValue = "1073741824", paramLabel = "BYTES", description = "Corpus bytes (default: ${DEFAULT-VALUE}).")
  long size;

  @Option(names = "--patterns", defaultValue = "100", paramLabel = "N", description = "Literals (default: ${DEFAULT-VALUE}).")
  int patterns;

  @Option(names = "--backend", defaultValue = "auto",
      description = "auto (reference, and cuda when usable) | reference | cuda (default: ${DEFAULT-VALUE}).")
  String backend;

  @Option(names = "--runs", defaultValue = "3", description = "Timed runs per backend after one warm-up (default: ${DEFAULT-VALUE}).")
  int runs;

  @Mixin ScanTuning tuning = new ScanTuning();

  @Option(names = "--no-grep", description = "Skip the grep baseline (for sweeps of vyre's own settings).")
  boolean noGrep;

  @Option(names = "--devices", paramLabel = "all|LIST", description = "Also measure the scan on each of these devices"
      + " alone and on all at once (one kernel each, one reader), with the host's ingest and, on CUDA, host-to-device"
      + " copy ceilings: all usable devices, or a list such as 0,1.")
  String devices;

  @Option(names = "--dir", paramLabel = "DIR", description = "Write (and keep) the corpus and patterns here; default a temporary directory.")
  Path dir;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON to this file.")
  Path json;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    atLeast("--size", size, 1, Long.MAX_VALUE);
    atLeast("--patterns", patterns, 1, PatternSet.MAX_PATTERNS);
    atLeast("--runs", runs, 1, Integer.MAX_VALUE);
    OutputFiles.requireWritable("--json", json);
    Map<String, Object> results = ScanBench.run(new ScanBench.Settings(size, patterns, backend, runs, !noGrep, dir,
        (name, deviceCount) -> tuning.options(name, false, deviceCount), ScanCommand::bootstrap, devices), out);
    BenchResults.print(out, results);
    BenchResults.writeJson(json, results);
    return 0;
  }

  private static void atLeast(String option, long value, long least, long most) {
    if (value < least || value > most) {
      throw InputException.of(option, value + " is outside " + least + ".." + most,
          "pass a value in that range (vyre bench scan --help)");
    }
  }
}
