package dev.vyre.cli;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.Backends;
import dev.vyre.runtime.Megakernel;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.FileResult;
import dev.vyre.scan.HitList;
import dev.vyre.scan.KernelResourcePool;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ResidentCorpus;
import dev.vyre.scan.ResidentScan;
import dev.vyre.scan.ResidentSizing;
import dev.vyre.scan.ScanCorpus;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanFilter;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import dev.vyre.scan.ScanRun;
import dev.vyre.scan.ScanSink;
import dev.vyre.scan.ScanSummary;
import dev.vyre.scan.ScanTargets;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vyre bench resident}: writes a {@link ScanCorpus} (one generated block, repeated) as several files, loads them into device
 * memory as {@code vyre serve --resident} does ({@link ResidentCorpus}), and times scans of it with
 * the corpus's literals, counting matches: each figure is bytes over the time from the first task
 * published to the last file's count, after the refresh (timed apart). One scan that reads the same
 * files from the page cache ({@link ScanJob}) runs last, for its figure and to check the counts.
 */
@Command(name = "resident", mixinStandardHelpOptions = true,
    description = "Scans of a corpus held in device memory (vyre serve --resident) with many literals, in GB/s.")
final class ResidentBenchCommand implements Callable<Integer> {

  @Option(names = "--size", defaultValue = "1073741824", paramLabel = "BYTES", description = "Corpus bytes (default: ${DEFAULT-VALUE}).")
  long size;

  @Option(names = "--files", defaultValue = "0", paramLabel = "N",
      description = "Files the corpus is written as (default: one per 256 MiB).")
  int files;

  @Option(names = "--patterns", defaultValue = "100", paramLabel = "N", description = "Literals (default: ${DEFAULT-VALUE}).")
  int patterns;

  @Option(names = "--dense-letters", defaultValue = "0", paramLabel = "N",
      description = "Also scan for the N letters the generated text holds most of, as one-byte literals (N = 3:"
          + " about a quarter of all bytes match), for dense matches (default: ${DEFAULT-VALUE}).")
  int denseLetters;

  @Option(names = "--backend", defaultValue = "auto", description = "auto | reference | cuda (default: ${DEFAULT-VALUE}).")
  String backend;

  @Option(names = "--runs", defaultValue = "5", description = "Timed scans after one warm-up (default: ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--segment", defaultValue = "1073741824", paramLabel = "BYTES",
      description = "Bytes per device resource of the corpus (default: ${DEFAULT-VALUE}).")
  long segment;

  @Option(names = "--dir", paramLabel = "DIR", description = "Write (and keep) the corpus here; default a temporary directory.")
  Path dir;

  @Mixin ScanTuning tuning = new ScanTuning();

  @Override
  public Integer call() throws IOException {
    PrintStream out = System.out;
    if (size < 1 || patterns < 1 || patterns > PatternSet.MAX_PATTERNS || runs < 1 || files < 0 || denseLetters < 0
        || denseLetters > 26) {
      throw InputException.of("vyre bench resident", "--size, --patterns, --runs must be positive, --files not"
          + " negative and --dense-letters 0..26", "pass values in range (vyre bench resident --help)");
    }
    Path root = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("vyre-resident-bench");
    try {
      return measure(out, root);
    } finally {
      if (dir == null) {
        // A temporary corpus of gigabytes is not left on the disk.
        try (Stream<Path> paths = Files.walk(root)) {
          for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
            Files.deleteIfExists(path);
          }
        }
      }
    }
  }

  private int measure(PrintStream out, Path root) throws IOException {
    Path corpusDir = Files.createDirectories(root.resolve("corpus"));
    int count = files > 0 ? files : (int) Math.max(1, Math.ceilDiv(size, 256L << 20));
    List<String> literals = ScanCorpus.literals(patterns, ScanCorpus.DEFAULT_SEED);
    long written = System.nanoTime();
    MemorySegment block = ScanCorpus.repeatedBlock(size, literals, ScanCorpus.DEFAULT_SEED);
    IntStream.range(0, count).parallel().forEach(f -> {
      try {
        ScanCorpus.writeRepeating(corpusDir.resolve(String.format("part-%05d.txt", f)),
            size / count + (f < size % count ? 1 : 0), block);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    out.printf("corpus: %d bytes in %d file(s) under %s, written in %.1f s; %d literals and %d one-letter ones%n",
        size, count, corpusDir, (System.nanoTime() - written) / 1e9, patterns, denseLetters);
    Backends.Choice choice = Backends.select(backend);
    ScanOptions options = tuning.options(choice.backend().name(), false);
    List<String> scanned = new ArrayList<>(literals);
    scanned.addAll(ScanCorpus.commonLetters(denseLetters));
    DfaTable table = AhoCorasickCompiler.compile(PatternSet.fromArguments(scanned, false));
    options = options.fittingHitCounter(table);
    try (Megakernel kernel = ScanCommand.bootstrap(Megakernel.builder().backend(choice), options,
        ResidentSizing.ringSlots(options))) {
      KernelResourcePool pool = new KernelResourcePool(kernel);
      out.println("kernel: " + kernel.describe() + "; resident tasks of " + ResidentSizing.taskBytes(options)
          + " bytes (a job's: " + options.taskBytes() + "), batches of " + options.tasksPerChunk() + " tasks, "
          + options.buffers() + " in flight");
      long loadStarted = System.nanoTime();
      try (ResidentCorpus corpus = new ResidentCorpus(pool, corpusDir, ScanFilter.NONE, segment,
          (int) Math.min(PatternSet.MAX_PATTERN_LENGTH, segment / 2))) {
        double loadSeconds = (System.nanoTime() - loadStarted) / 1e9;
        out.printf("loaded: %d file(s), %d bytes into %d MiB of device memory in %.2f s (%.2f GB/s)%n", corpus.files(),
            corpus.bytes(), corpus.deviceBytes() >> 20, loadSeconds, corpus.bytes() / loadSeconds / 1e9);
        List<ScanFile> targets = ScanTargets.walk(List.of(corpusDir)).files();
        // Where the backend promotes hot tables (docs/POLICY.md, "Promotion"), each run scans twice, the table
        // interpreted and then promoted, so both sides of the comparison share the machine's state.
        int passes = kernel.promotedDfaIsFaster() ? 2 : 1;
        double[][] rates = new double[2][runs];
        String promotion = "not measured: the " + kernel.backendName() + " backend has no faster promoted DFA_STEP";
        long matches = -1;
        for (int run = -1; run < runs; run++) {
          for (int promoted = 0; promoted < passes; promoted++) {
            try (ResidentScan scan = ResidentScan.open(corpus, table, options, targets, promoted == 1)) {
              if (scan == null) {
                throw InputException.of(corpusDir.toString(), "the corpus does not hold every file written",
                    "report this bug");
              }
              ScanSummary summary = scan.run(targets, counting());
              promotion = promoted == 1 ? scan.promotion() : promotion;
              if (run >= 0) {
                rates[promoted][run] = summary.gigabytesPerSecond();
                out.printf("resident scan %d, %s: %.4f s, %.1f GB/s, %d matches (refresh %.3f s); %s%n", run + 1,
                    promoted == 1 ? "promoted" : "interpreted", summary.nanos() / 1e9, summary.gigabytesPerSecond(),
                    summary.matches(), scan.refresh().nanos() / 1e9, scan.phases().describe(summary.nanos()));
              }
              if (matches >= 0 && matches != summary.matches()) {
                throw InputException.of("vyre bench resident", "scans of the same corpus counted " + matches + " and "
                    + summary.matches() + " matches", "report this bug");
              }
              matches = summary.matches();
            }
          }
        }
        Arrays.sort(rates[0]);
        Arrays.sort(rates[1]);
        ScanSummary fromDisk;
        try (ScanRun job = new ScanJob(pool, table, options)) {
          fromDisk = job.run(targets, counting());
        }
        double interpreted = rates[0][runs / 2];
        String withPromotion = passes == 1 ? "promotion " + promotion
            : String.format("with the table promoted %.1f GB/s (%.2fx; %s; %d DFA_STEP tasks scanned promoted)",
                rates[1][runs / 2], rates[1][runs / 2] / interpreted, promotion, kernel.promotedTasks());
        out.printf("resident: median %.1f GB/s (%d literals, %d bytes in %d file(s)); %s; from the page cache: %.1f GB/s;"
            + " matches %d, %s%n", interpreted, patterns, size, count, withPromotion, fromDisk.gigabytesPerSecond(), matches,
            fromDisk.matches() == matches ? "equal" : "NOT EQUAL to the page-cache scan's " + fromDisk.matches());
        return fromDisk.matches() == matches ? 0 : 1;
      }
    }
  }

  /** A sink that only counts: the job counts matches without reading them back. */
  private static ScanSink counting() {
    return new ScanSink() {
      @Override
      public boolean found(ScanFile file, HitList hits, long total) {
        return true;
      }

      @Override
      public void finished(FileResult result) {
        if (result.failed()) {
          throw InputException.of(result.file().path().toString(), result.error(), "report this bug");
        }
      }
    };
  }
}
