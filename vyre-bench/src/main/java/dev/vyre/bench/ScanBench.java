package dev.vyre.bench;

import dev.vyre.io.BufferPool;
import dev.vyre.io.ChunkReader;
import dev.vyre.io.IoBackends;
import dev.vyre.io.ReadCompletion;
import dev.vyre.runtime.Backends;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.MegakernelBuilder;
import dev.vyre.runtime.spi.MegakernelBackend;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanCorpus;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import dev.vyre.scan.ScanSummary;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * What {@code vyre bench scan} measures: writes a {@link ScanCorpus} and its literals to disk, then
 * measures in one run {@code vyre scan}'s engine on the reference backend, on CUDA when usable,
 * and {@code grep -F -c -f patterns corpus}, all reading the corpus from the page cache. A vyre
 * figure is the median of timed runs after one untimed warm-up run (JIT, page cache), from opening
 * the file to sorted hits; bootstrapping the kernel and compiling the patterns are not timed.
 */
public final class ScanBench {

  /**
   * One run's settings, the {@code vyre bench scan} options of the same names.
   *
   * @param size corpus bytes
   * @param patterns literals, 1 to {@link PatternSet#MAX_PATTERNS}
   * @param backend {@code auto} (reference, and cuda when usable), {@code reference} or {@code cuda}
   * @param runs timed runs per backend after one warm-up
   * @param grep whether to measure the grep baseline
   * @param dir where to write (and keep) the corpus and patterns, reused when they match; null for
   *     a temporary directory, removed at the end
   * @param options the scan's options on the backend named, for a job over that many devices
   * @param bootstrap bootstraps the scan's kernel from a builder with its backend chosen, as
   *     {@code vyre scan} does, so that the bench measures what the scan runs
   * @param devices {@code --devices} ({@code all} or a list such as {@code 0,1}) to measure the scan on
   *     each of them alone and on all at once ({@link ScanDeviceScaling}), on the last backend measured;
   *     null for none
   */
  public record Settings(long size, int patterns, String backend, int runs, boolean grep, Path dir,
      BiFunction<String, Integer, ScanOptions> options, BiFunction<MegakernelBuilder, ScanOptions, Megakernel> bootstrap,
      String devices) {

    /** Refuses settings that measure nothing. */
    public Settings {
      Objects.requireNonNull(backend, "backend");
      Objects.requireNonNull(options, "options");
      Objects.requireNonNull(bootstrap, "bootstrap");
      if (size < 1 || patterns < 1 || patterns > PatternSet.MAX_PATTERNS || runs < 1) {
        throw new IllegalArgumentException("settings that measure nothing: size " + size + ", patterns " + patterns
            + ", runs " + runs);
      }
    }
  }

  private ScanBench() {}

  /**
   * Writes (or reuses) the corpus, measures, printing a line per step to {@code out}, and returns
   * the measures in the order {@code vyre bench scan} reports them. A temporary directory is
   * removed before this returns.
   */
  public static Map<String, Object> run(Settings settings, PrintStream out) throws IOException, InterruptedException {
    long size = settings.size();
    int patterns = settings.patterns();
    Path dir = settings.dir();
    try (BenchWorkDirectory work = BenchWorkDirectory.open(dir, "vyre-bench-scan", "corpus", "patterns", "corpus.recipe")) {
      Path corpus = work.resolve("corpus");
      Path patternFile = work.resolve("patterns");
      // A corpus kept in --dir is reused when it was written with the same size, literals and seed.
      Path recipe = work.resolve("corpus.recipe");
      String wanted = size + " bytes, " + patterns + " literals, seed " + ScanCorpus.DEFAULT_SEED;
      boolean reuse = dir != null && Files.exists(recipe) && Files.readString(recipe).equals(wanted)
          && Files.size(corpus) == size;
      if (!reuse) {
        work.requireRoom(size, corpus);
      }
      List<String> literals = ScanCorpus.literals(patterns, ScanCorpus.DEFAULT_SEED);
      ScanCorpus.writePatterns(patternFile, literals);
      if (reuse) {
        out.printf("vyre bench scan: reusing %s (%s)%n", corpus, wanted);
      } else {
        out.printf("vyre bench scan: writing %,d bytes with %d literals to %s%n", size, patterns, corpus.getParent());
        ScanCorpus.write(corpus, size, literals, ScanCorpus.DEFAULT_SEED);
        Files.writeString(recipe, wanted);
      }
      Map<String, Object> results = new LinkedHashMap<>();
      results.put("date", Instant.now().toString());
      results.put("corpus_bytes", size);
      results.put("patterns", patterns);
      results.put("cores", Runtime.getRuntime().availableProcessors());
      DfaTable table = AhoCorasickCompiler.compile(PatternSet.fromArguments(literals, false));
      results.put("dfa_table", table.describe());
      List<MegakernelBackend> measured = backends(settings.backend());
      for (MegakernelBackend selected : measured) {
        measure(settings, selected, table, new ScanFile(corpus, size), results, out);
      }
      if (settings.devices() != null) {
        ScanDeviceScaling.measure(settings, measured.getLast(), table, new ScanFile(corpus, size), results, out);
      }
      if (settings.grep()) {
        measureGrep(patternFile, corpus, results, out);
      }
      addRatios(results);
      return results;
    }
  }

  /** {@code auto}: every usable backend, the reference one always; otherwise the one named. */
  private static List<MegakernelBackend> backends(String backend) {
    if (!backend.equalsIgnoreCase("auto")) {
      return List.of(Backends.select(backend).backend());
    }
    return Backends.all().stream().filter(b -> b.availability().usable()).toList().reversed();
  }

  private static void measure(Settings settings, MegakernelBackend selected, DfaTable table, ScanFile corpus,
      Map<String, Object> results, PrintStream out) {
    String name = selected.name();
    ScanOptions options = settings.options().apply(name, 1);
    double[] rates = new double[Math.max(1, settings.runs())];
    long matches;
    try (Megakernel kernel = settings.bootstrap().apply(Megakernel.builder().backend(selected), options);
        ScanJob job = new ScanJob(kernel, table, options)) {
      out.println("vyre bench scan: " + kernel.describe() + "; io: " + job.ioBackend() + "; " + options);
      results.put(name + "_device", kernel.describe());
      results.put(name + "_io", job.ioBackend());
      results.put(name + "_options", options.toString());
      matches = job.run(List.of(corpus), result -> {}).matches();
      ScanSummary last = timedRuns(job, corpus, name, rates, out);
      results.put(name + "_time_split_last_run", job.phases().describe(last.nanos()));
    }
    double ingest = Math.max(ingestGigabytesPerSecond(corpus, options), ingestGigabytesPerSecond(corpus, options));
    out.printf("  %s ingest alone (chunk reader, nothing scanned): %.3f GB/s%n", name, ingest);
    results.put(name + "_ingest_gb_per_s", ingest);
    results.put(name + "_matches", matches);
    results.put(name + "_gb_per_s", rates[rates.length / 2]);
    results.put(name + "_best_gb_per_s", rates[rates.length - 1]);
  }

  /** Fills {@code rates} with the GB/s of one timed run each, printing each, and sorts them; returns the last run's summary. */
  static ScanSummary timedRuns(ScanJob job, ScanFile corpus, String label, double[] rates, PrintStream out) {
    ScanSummary summary = null;
    for (int run = 0; run < rates.length; run++) {
      summary = job.run(List.of(corpus), result -> {});
      rates[run] = summary.gigabytesPerSecond();
      out.printf("  %s run %d: %.3f GB/s (%d matches); %s%n", label, run + 1, rates[run], summary.matches(),
          job.phases().describe(summary.nanos()));
    }
    Arrays.sort(rates);
    return summary;
  }

  /**
   * The chunk reader alone, with the scan's chunk size, buffer count and read mode: what the
   * ingest can deliver when no task waits for it (the better of two runs).
   */
  static double ingestGigabytesPerSecond(ScanFile corpus, ScanOptions options) {
    return ingestGigabytesPerSecond(corpus, options.chunkBytes(), options.buffers(), options.parallelReads());
  }

  /**
   * As {@link #ingestGigabytesPerSecond(ScanFile, ScanOptions)}, with any number of buffers: every
   * device's together may be more than one job's {@link ScanOptions#MAX_BUFFERS}.
   */
  static double ingestGigabytesPerSecond(ScanFile corpus, long chunkBytes, int buffers, boolean parallelReads) {
    try (Arena arena = Arena.ofConfined();
        ChunkReader reader = IoBackends.open(BufferPool.of(BufferPool.allocate(arena, buffers, chunkBytes)), parallelReads)) {
      long started = System.nanoTime();
      int file = reader.openFile(corpus.path());
      ArrayDeque<Integer> free = new ArrayDeque<>();
      for (int b = 0; b < buffers; b++) {
        free.add(b);
      }
      long next = 0;
      long read = 0;
      while (next < corpus.size() || reader.inFlight() > 0) {
        while (next < corpus.size() && !free.isEmpty()) {
          int buffer = free.poll();
          int length = (int) Math.min(chunkBytes, corpus.size() - next);
          reader.submit(file, next, length, buffer, buffer);
          next += length;
        }
        ReadCompletion completion = reader.await();
        if (completion.failed()) {
          throw completion.error();
        }
        read += completion.bytesRead();
        free.add(completion.bufferIndex());
      }
      reader.closeFile(file);
      return read / (double) (System.nanoTime() - started);
    }
  }

  /** {@code grep -F -c -f patterns corpus} in the C locale, timed from start to exit. */
  private static void measureGrep(Path patternFile, Path corpus, Map<String, Object> results, PrintStream out)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder("grep", "-F", "-c", "-f", patternFile.toString(), corpus.toString());
    builder.environment().put("LC_ALL", "C");
    long started = System.nanoTime();
    Process grep;
    try {
      grep = builder.redirectErrorStream(true).start();
    } catch (IOException e) {
      out.println("vyre bench scan: grep could not run (" + e.getMessage() + "); no grep figure");
      return;
    }
    String output = new String(grep.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    int status = grep.waitFor();
    long nanos = System.nanoTime() - started;
    if (status > 1) {
      out.println("vyre bench scan: grep failed (" + status + "): " + output);
      return;
    }
    out.printf("  grep -F -c: %.3f GB/s (%s matching lines)%n", (double) Files.size(corpus) / nanos, output);
    results.put("grep_matching_lines", output);
    results.put("grep_gb_per_s", (double) Files.size(corpus) / nanos);
  }

  /** Each backend against grep, and CUDA against the reference backend, when both were measured. */
  private static void addRatios(Map<String, Object> results) {
    List<String> measured = new ArrayList<>();
    results.keySet().stream().filter(k -> k.endsWith("_gb_per_s") && !k.contains("best") && !k.contains("ingest"))
        .forEach(k -> measured.add(k.substring(0, k.length() - "_gb_per_s".length())));
    Map<String, Object> ratios = new LinkedHashMap<>();
    for (String name : measured) {
      if (!name.equals("grep") && measured.contains("grep")) {
        ratios.put(name + "_vs_grep", (double) results.get(name + "_gb_per_s") / (double) results.get("grep_gb_per_s"));
      }
    }
    if (measured.contains("cuda") && measured.contains("reference")) {
      ratios.put("cuda_vs_reference", (double) results.get("cuda_gb_per_s") / (double) results.get("reference_gb_per_s"));
      ratios.put("cuda_reference_matches_agree", results.get("cuda_matches").equals(results.get("reference_matches")));
    }
    results.putAll(ratios);
  }
}
