package dev.vyre.cli;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.Backends;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.MegakernelBuilder;
import dev.vyre.runtime.Priority;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.FileResult;
import dev.vyre.scan.HitList;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ResidentScan;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanRun;
import dev.vyre.scan.ScanOptions;
import dev.vyre.scan.ScanPhases;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanRoute;
import dev.vyre.scan.ScanSink;
import dev.vyre.scan.ScanSummary;
import dev.vyre.scan.ScanTargets;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code vyre scan}: multi-pattern literal search over files and directories with DFA_STEP on a
 * megakernel, grep-like in its output and exit status.
 */
@Command(name = "scan", sortOptions = false,
    description = {
        "Find every occurrence of literal patterns in files, recursively, on the GPU when one is usable.",
        "Prints path:byte-offset:pattern for every match, overlapping ones included, sorted by offset per file"
            + " (grep -r -F -o -b -H).",
        "Patterns are fixed strings (like grep -F). Binary files are scanned like text; offsets count bytes.",
        "Exit status: 0 if something matched, 1 if nothing did, 2 if an error occurred (even with matches,"
            + " unless -q)."},
    customSynopsis = {"vyre scan [OPTIONS] PATTERN [PATH...]",
        "       vyre scan [OPTIONS] (-e PATTERN | -f FILE)... [PATH...]"},
    footer = {"", "With no PATH: standard input when it is a pipe or a file and -r is not given (as grep), else the"
        + " current directory (as grep -r).",
        "", "Where vyre scan differs from grep:",
        "  Every occurrence is a match, overlapping ones too: -e he -e she finds both in \"she\", grep -o only she.",
        "  -c and -m count matches, not lines: a line can hold several.",
        "  With -i a match prints the pattern as given, not the text it matched (grep -o prints the text).",
        "  The file name is printed for a single file too (-h leaves it out).",
        "  -w's word characters are ASCII letters, digits and _ (grep's in the C locale).",
        "  A pipe on standard input is read to its end, into a temporary file, before it is scanned.",
        "  No regular expressions, context lines or inverted matching (-E, -A, -v ...): each says so and what to use.",
        "", "Example:",
        "  vyre scan -f examples/scan/patterns.txt examples/scan/"})
final class ScanCommand implements Callable<Integer> {

  @Option(names = {"-e", "--regexp"}, paramLabel = "PATTERN",
      description = "A pattern (repeatable); matched literally. As in grep, a newline in it separates patterns.")
  List<String> patterns = new ArrayList<>();

  // Strings, not Paths: a name that is not valid in the charset becomes a Path through RawArguments.
  @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Read patterns from FILE, one per line (repeatable).")
  List<String> patternFiles = new ArrayList<>();

  @Option(names = {"-i", "--ignore-case"}, description = "ASCII letters match either case.")
  boolean ignoreCase;

  @Option(names = {"-F", "--fixed-strings"}, description = "Accepted for grep users: patterns are always fixed strings.")
  boolean fixedStrings;

  @Option(names = {"-r", "--recursive"}, description = "Accepted for grep users: directories are always scanned recursively.")
  boolean recursive;

  @Mixin ScanFileFilter files = new ScanFileFilter();

  @ArgGroup(exclusive = true)
  OutputMode mode = new OutputMode();

  /** At most one of --count and --json. */
  static final class OutputMode {
    @Option(names = {"-c", "--count"}, description = "Print path:count (matches, overlapping ones included) per file.")
    boolean count;

    @Option(names = "--json", description = "Print one JSON object per match: path, offset, pattern_id, pattern;"
        + " a path or pattern that is not valid UTF-8 shows U+FFFD there and its exact bytes, base64, in path_bytes"
        + " or pattern_bytes.")
    boolean json;
  }

  @Mixin ScanListing listing = new ScanListing();

  @Mixin ScanGrepOptions grep = new ScanGrepOptions();

  @Option(names = {"-q", "--quiet", "--silent"}, description = "Print nothing and stop at the first file with a match;"
      + " exit 0 if one matched, even if an error occurred (overrides -l, -L, -c, --json).")
  boolean quiet;

  @Option(names = {"-s", "--no-messages"}, description = "Say nothing about files that do not exist or cannot be read;"
      + " the exit status is unchanged.")
  boolean noMessages;

  @Option(names = {"-m", "--max-count"}, paramLabel = "NUM", description = "Report at most the first NUM matches of"
      + " each file (-c counts up to NUM). Unlike grep, which stops after NUM matching lines, this counts matches: a"
      + " line can hold several. NUM 0 exits 1 at once; a negative NUM means no limit.")
  long maxCount = -1;

  // Not the shared BackendOption mixin: its -v would shadow grep's -v (invert), which must fail loudly here.
  @Option(names = "--backend", defaultValue = "auto", description = "auto | reference | cuda (default: ${DEFAULT-VALUE}).")
  String backend;

  @Option(names = "--device", paramLabel = "N", description = "Run on device N (default: $VYRE_CUDA_DEVICE, else 0).")
  Integer device;

  @Option(names = "--devices", paramLabel = "all|LIST", description = "Spread the scan over several devices, one kernel"
      + " each, fed by one reader: all usable ones, or a list such as 0,2. The output is the same as on one device.")
  String devices;

  @Option(names = "--verbose", description = "Say which backend and file reader were chosen and why, and the DFA size"
      + " (and whether the scan ran through a service).")
  boolean verbose;

  // Read by the client before parsing (ServiceClient); declared so that it parses.
  @Option(names = "--no-server", description = "Scan in this process even when a `vyre serve` of this user is running.")
  boolean noServer;

  @Mixin ScanTuning tuning = new ScanTuning();

  // Only the long form: grep's -h means something else.
  @Option(names = "--help", usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Parameters(paramLabel = "PATH", description = "Files and directories to scan (the first is PATTERN without -e/-f);"
      + " - is standard input.")
  List<String> operands = new ArrayList<>();

  /** Where - and -f - read, and what no PATH reads when it holds data; null for this process's stdin. */
  StandardInput stdin;

  /** Where this command line runs: set by {@code vyre serve}, else this process. */
  ScanEnvironment environment;

  /** How long compiling the patterns took (for --verbose). */
  private long compileNanos;
  /** How long the scan waited for its patterns' table after its kernels started: not part of their start-up. */
  private long compileWaitNanos;

  @Override
  public Integer call() throws IOException {
    if (environment == null) {
      environment = ScanEnvironment.process();
    }
    StandardInput input = stdin != null ? stdin : StandardInput.process();
    if (environment.served()) {
      String reason = unservable(environment.sharedKernel().kernel().backendName(), input);
      if (reason != null) {
        environment.decline().accept(reason);
        return 0;
      }
    }
    List<String> paths = new ArrayList<>(operands);
    PatternSet patternSet = patternSet(paths, input);
    ScanListing.Files listed = quiet ? null : listing.files;
    ScanOutput.Format format = quiet ? ScanOutput.Format.QUIET
        : listed != null ? (mode.json ? ScanOutput.Format.JSON_PATHS : ScanOutput.Format.PATHS)
        : mode.count ? ScanOutput.Format.COUNT : mode.json ? ScanOutput.Format.JSON : ScanOutput.Format.LINES;
    // As grep: with -m 0 no file can match, so nothing is read (but -L lists every file).
    if (maxCount == 0 && listed != ScanListing.Files.WITHOUT_MATCH) {
      return 1;
    }
    long walkStarted = System.nanoTime();
    try (ScanInputs inputs = ScanInputs.of(paths, files.filter, input, recursive,
        patternFiles.contains(ScanInputs.STDIN_OPERAND), environment.workingDirectory())) {
      return scan(inputs, patternSet, format, listed, System.nanoTime() - walkStarted);
    }
  }

  /** {@code walkNanos}: the time the walk of the PATHs took, for {@code --verbose}. */
  private int scan(ScanInputs inputs, PatternSet patternSet, ScanOutput.Format format, ScanListing.Files listed,
      long walkNanos) throws IOException {
    PrintStream err = environment.stderr();
    ScanTargets targets = inputs.targets();
    if (!noMessages) {
      for (ScanTargets.Problem problem : targets.problems()) {
        err.println(ScanFileErrors.message(problem.path(), problem.reason()));
      }
    }
    String patternClass = ScanRoute.patternClass(patternSet.totalBytes());
    ScanRoute learned = environment.served() ? null : ScanRoute.load(ScanRoute.standardFile(), patternClass);
    Backends.Choice choice = environment.served() ? null : route(learned, targets.totalBytes());
    String backendName = environment.served() ? environment.sharedKernel().kernel().backendName() : choice.backend().name();
    boolean printsEachMatch = format == ScanOutput.Format.LINES || format == ScanOutput.Format.JSON;
    // -w decides which matches count by the bytes around each, so every format needs them.
    List<Integer> devices = environment.served() ? null : devices(choice);
    ScanOptions options = tuning.options(backendName, printsEachMatch || grep.words, devices == null ? 1 : devices.size());
    // A job of its own allocates for its input (a 12-byte file needs no 32 buffers of 1 GiB); a
    // service's lanes are allocated once, at the defaults.
    if (!environment.served()) {
      options = options.fittedTo(targets.totalBytes(), targets.files().size());
    }
    // A scan with kernels of its own compiles the patterns while they start (with many patterns the two take
    // about as long); the options the table fits need no larger ring than those the kernels start with.
    CompletableFuture<DfaTable> compiling = environment.served() ? CompletableFuture.completedFuture(compile(patternSet))
        : CompletableFuture.supplyAsync(() -> compile(patternSet));
    OutputStream stdout = new BufferedOutputStream(environment.stdout(), 1 << 16);
    ScanSummary summary;
    ScanPhases phases;
    ScanOutput output = new ScanOutput(stdout, err, patternSet, format, listed == ScanListing.Files.WITHOUT_MATCH,
        maxCount < 0 ? Long.MAX_VALUE : maxCount, noMessages, grep.names(inputs.standardInput()),
        grep.context(patternSet, printsEachMatch));
    // Ctrl-C or SIGTERM: the lines printed so far reach stdout, and the progress line is erased.
    // Registered until the output is closed, which holds lines until then. A served scan's client
    // is the process that gets the signal; the service sees its socket close.
    AtomicReference<ScanProgress> shownProgress = new AtomicReference<>();
    Thread interrupted = Thread.ofPlatform().unstarted(() -> {
      ScanProgress shown = shownProgress.get();
      if (shown != null) {
        shown.close();
      }
      output.interrupted();
    });
    if (!environment.served() && !ShutdownHooks.add(interrupted)) {
      // Ctrl-C or SIGTERM came before the scan began: print nothing. The JVM exits with the
      // signal's status whatever this returns, once its hooks have run.
      output.close();
      return ShutdownHooks.INTERRUPTED_STATUS;
    }
    DfaTable table;
    long bootStarted = System.nanoTime();
    try (output;
        ScanKernels own = environment.served() ? null : ScanKernels.start(choice, devices, options,
            expectedTasks(targets.files().size(), targets.totalBytes(), options),
            verbose ? line -> err.println("vyre scan: " + line) : line -> {});
        ScanRun job = openRun(own, table = compiled(compiling), options = fitted(options, table), targets)) {
      // Kernels of its own: each one's context, its kernel from the pipeline cache, the job's buffers.
      long startNanos = System.nanoTime() - bootStarted - compileWaitNanos;
      List<Megakernel> kernels = environment.served() ? List.of(environment.sharedKernel().kernel()) : own.kernels;
      Megakernel kernel = kernels.getFirst();
      if (environment.cancellation() != null) {
        environment.cancellation().accept(job::stop);
      }
      if (verbose) {
        err.println("vyre scan: backend: " + (environment.served() ? "the service's kernel" : kernel.backendReason()));
        for (Megakernel each : kernels) {
          err.println("vyre scan: kernel: " + each.describe());
        }
        err.println("vyre scan: io: " + job.ioBackend());
        err.println("vyre scan: DFA table: " + table.describe());
        // The host's work before the scan: on a tree of small files it can rival the scan itself.
        err.printf("vyre scan: walk %.3f s, pattern compile %.3f s%n", walkNanos / 1e9, compileNanos / 1e9);
        err.println("vyre scan: " + targets.files().size() + " file(s), " + targets.totalBytes() + " bytes; chunks of "
            + options.chunkBytes() + " bytes in tasks of " + options.taskBytes() + ", " + options.buffers() + " buffers"
            + (kernels.size() > 1 ? " per device" : "")
            + (job instanceof ResidentScan ? ", scanned where the service holds them in device memory (resident)"
                : options.stageOnDevice() ? ", each chunk copied to device memory" : ", scanned in place"));
        err.println("vyre scan: policy: hit buffers of " + ScanJob.hitCapacity(options) + " records a chunk, the hit capacity for "
            + options.tasksPerChunk() + " tasks of " + options.hitCapacityRequest().expectedHitsPerItem() + " expected hits");
      }
      try (ScanProgress progress = ScanProgress.start(job::bytesScanned, targets.totalBytes(), err,
          environment.stderrIsTerminal())) {
        shownProgress.set(progress);
        summary = job.run(targets.files(), new Printing(output, job, environment.stdoutIsTerminal() ? progress : null));
      }
      phases = job.phases();
      // The route weighs one device's start-up and speed.
      if (!environment.served() && kernels.size() == 1) {
        learn(learned, patternClass, kernel, startNanos, summary);
      }
    } finally {
      if (!environment.served()) {
        ShutdownHooks.remove(interrupted);
      }
    }
    if (verbose) {
      err.printf("vyre scan: %d file(s), %d bytes in %.3f s (%.3f GB/s), %d match(es), %d chunk rescan(s)%n",
          summary.files(), summary.bytes(), summary.nanos() / 1e9, summary.gigabytesPerSecond(), summary.matches(),
          summary.rescans());
      err.println("vyre scan: " + phases.describe(summary.nanos()));
    }
    if (output.failure() != null) {
      // grep is ended by SIGPIPE, quietly; a full disk is an error.
      if (environment.stdout() instanceof StdoutStream stdoutStream && stdoutStream.closedPipe()) {
        return ProcessStdout.CLOSED_PIPE_STATUS;
      }
      throw new UncheckedIOException(output.failure());
    }
    boolean matched = maxCount != 0 && output.matched();
    // grep -q: a match is the answer even if an error occurred.
    if (quiet && matched) {
      return 0;
    }
    if (!targets.problems().isEmpty() || output.failedFiles() > 0) {
      return 2;
    }
    return matched ? 0 : 1;
  }

  /** Compiles {@code patternSet}, timing it in {@link #compileNanos}. */
  private DfaTable compile(PatternSet patternSet) {
    long started = System.nanoTime();
    DfaTable table = environment.compiler().apply(patternSet);
    compileNanos = System.nanoTime() - started;
    return table;
  }

  /** The patterns' table, once compiled (the time waited for it in {@link #compileWaitNanos}); a compile error as thrown. */
  private DfaTable compiled(CompletableFuture<DfaTable> compiling) {
    long waitStarted = System.nanoTime();
    try {
      return compiling.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    } finally {
      compileWaitNanos = System.nanoTime() - waitStarted;
    }
  }

  /** {@code options} with chunks no larger than the table's hit counter can count (said on stderr when smaller). */
  private ScanOptions fitted(ScanOptions options, DfaTable table) {
    ScanOptions fitted = options.fittingHitCounter(table);
    if (fitted != options) {
      environment.stderr().println("vyre scan: chunks of " + fitted.chunkBytes() + " bytes, not " + options.chunkBytes()
          + ": up to " + table.maxAcceptsPerState() + " of these patterns end at one byte, and a chunk's hit counter is"
          + " 32 bits");
    }
    return fitted;
  }

  /**
   * The scan of a service's resident corpus when it holds every target in device memory (it is
   * refreshed first, so it holds what is on disk), else a job that reads the targets.
   */
  private ScanRun openRun(ScanKernels own, DfaTable table, ScanOptions options, ScanTargets targets) {
    if (environment.resident() != null) {
      ResidentScan resident = ResidentScan.open(environment.resident(), table, options, targets.files());
      if (resident != null) {
        return resident;
      }
    }
    return new ScanJob(environment.served() ? List.of(environment.sharedKernel()) : own.pools(), table, options);
  }

  /**
   * Hands the scan's matches and results to the output, through the progress line when stdout is
   * the terminal it is on (flushed each time), and stops the job once the output is done: -q has its
   * answer at the first file with a match, and a failed stdout ends the output.
   */
  private record Printing(ScanOutput output, ScanRun job, ScanProgress progress) implements ScanSink {

    @Override
    public boolean found(ScanFile file, HitList hits, long total) {
      boolean more;
      if (progress != null && hits != null) {
        boolean[] wanted = new boolean[1];
        progress.printing(() -> {
          wanted[0] = output.found(file, hits, total);
          output.flush();
        });
        more = wanted[0];
      } else {
        more = output.found(file, hits, total);
      }
      stopWhenDone();
      return more;
    }

    @Override
    public void finished(FileResult result) {
      if (progress != null) {
        progress.printing(() -> {
          output.finished(result);
          output.flush();
        });
      } else {
        output.finished(result);
      }
      stopWhenDone();
    }

    private void stopWhenDone() {
      if (output.done()) {
        job.stop();
      }
    }
  }

  /**
   * A megakernel for scan jobs: ring slots for every task in flight, all at NORMAL priority, and on
   * the reference backend one worker per core, since the scan's host thread mostly sleeps.
   */
  static Megakernel bootstrap(MegakernelBuilder builder, ScanOptions options) {
    return bootstrap(builder, options, options.ringSlots());
  }

  /** The same with {@code slots} ring slots, for a kernel that runs several scans at once. */
  static Megakernel bootstrap(MegakernelBuilder builder, ScanOptions options, int slots) {
    return bootstrap(builder, options, slots, Runtime.getRuntime().availableProcessors());
  }

  /** The same with {@code workers} reference workers, for reference kernels that share the cores. */
  static Megakernel bootstrap(MegakernelBuilder builder, ScanOptions options, int slots, int workers) {
    return builder.slots(slots).singlePriority(Priority.NORMAL).workers(workers).bootstrap();
  }

  /**
   * The devices {@code --device} or {@code --devices} name on the chosen backend, or null for its
   * default device; the two options exclude each other.
   */
  private List<Integer> devices(Backends.Choice choice) {
    if (device != null && devices != null) {
      throw InputException.of("--device", "--device and --devices are both given", "pass one of them");
    }
    if (device != null) {
      return Backends.devices(choice.backend(), device.toString());
    }
    return devices == null ? null : Backends.devices(choice.backend(), devices);
  }

  /** Tasks the job has in flight at once: a task per file and per task-sized piece of it, up to the ring's slots. */
  static long expectedTasks(long files, long bytes, ScanOptions options) {
    return Math.min(files + bytes / options.taskBytes(), options.ringSlots());
  }

  /**
   * The backend of a scan in its own process: {@code --backend} as given, but {@code auto} takes the
   * CPU for a job smaller than what the cores scan while a GPU starts ({@link ScanRoute}).
   */
  private Backends.Choice route(ScanRoute learned, long bytes) {
    int cores = Runtime.getRuntime().availableProcessors();
    if (backend.equalsIgnoreCase("auto") && learned.onCpu(bytes, cores)) {
      Backends.Choice cpu = Backends.select("reference");
      return new Backends.Choice(cpu.backend(), "auto chose reference: " + learned.explain(bytes, cores));
    }
    Backends.Choice choice = Backends.select(backend);
    return backend.equalsIgnoreCase("auto")
        ? new Backends.Choice(choice.backend(), choice.reason() + "; " + learned.explain(bytes, cores)) : choice;
  }

  /** Adds what this one-shot scan measured to the route's figures and keeps them; a failure to keep them only costs the lesson. */
  private void learn(ScanRoute learned, String patternClass, Megakernel kernel, long startNanos, ScanSummary summary) {
    boolean gpu = !kernel.backendName().equals("reference");
    ScanRoute next = learned.afterScan(gpu, summary.bytes(), summary.files(), summary.nanos(), kernel.workerGroups());
    // A kernel NVRTC compiled took seconds more than the start-up the route weighs: learned from
    // it, the next jobs would go to the CPU and never measure the GPU again.
    if (gpu && !kernel.compiledAtStart()) {
      next = next.afterGpuStart(startNanos);
    }
    if (!next.equals(learned)) {
      try {
        next.store(ScanRoute.standardFile(), patternClass);
      } catch (IOException e) {
        if (verbose) {
          environment.stderr().println("vyre scan: the route's figures were not kept: " + e.getMessage());
        }
      }
    }
  }

  /**
   * Why this command line cannot run on a service's kernel of backend {@code serviceBackend}, or
   * null: a backend other than the service's, tuning the service's fixed buffers cannot follow, or
   * standard input, which only the client can read.
   */
  String unservable(String serviceBackend, StandardInput input) {
    if (!backend.equals("auto") && !backend.equals(serviceBackend)) {
      return "--backend " + backend + " asked for, and the service runs " + serviceBackend;
    }
    if (device != null || devices != null) {
      return "--device or --devices is given, and the service runs on its own device";
    }
    if (!tuning.isDefault()) {
      return "tuning options (--chunk-size, --task-size, --buffers, --stage, --parallel-reads, --pack-readers) are given";
    }
    boolean patternsFromStdin = patternFiles.contains(ScanInputs.STDIN_OPERAND);
    if (patternsFromStdin || ScanInputs.readsStdin(operands, recursive, false, input.data())) {
      return "standard input is read";
    }
    return null;
  }

  /**
   * The -e patterns, then each -f file's; without either, the first operand is the pattern. As in
   * grep, a newline inside PATTERN or an -e value separates patterns, and an empty -f file adds none.
   */
  private PatternSet patternSet(List<String> paths, StandardInput input) {
    List<byte[]> all = new ArrayList<>();
    String source;
    if (patterns.isEmpty() && patternFiles.isEmpty()) {
      if (paths.isEmpty()) {
        // Named after the missing operand: the handler already prefixes "vyre: " (it read "vyre: vyre scan: ...").
        throw InputException.of("PATTERN", "no pattern given",
            "pass a pattern first (vyre scan PATTERN PATH...), or use -e PATTERN or -f FILE");
      }
      source = "PATTERN";
      all.addAll(PatternSet.argumentByteLines(source, List.of(RawArguments.bytes(paths.removeFirst()))));
    } else {
      String only = patternFiles.size() == 1 && patterns.isEmpty() ? patternFiles.getFirst() : null;
      source = only == null ? "patterns" : only.equals(ScanInputs.STDIN_OPERAND) ? ScanFileNames.STANDARD_INPUT
          : RawArguments.path(only).toString();
      // The arguments' own bytes (RawArguments), as -f FILE's lines are the file's.
      all.addAll(PatternSet.argumentByteLines("-e", patterns.stream().map(RawArguments::bytes).toList()));
      for (String file : patternFiles) {
        // As grep: -f - reads the patterns from stdin (once; a file named - is ./-).
        all.addAll(file.equals(ScanInputs.STDIN_OPERAND)
            ? PatternSet.lines(ScanFileNames.STANDARD_INPUT, input.readPatterns(PatternSet.MAX_FILE_BYTES))
            : PatternSet.fileLines(RawArguments.path(file), environment.locate(RawArguments.path(file))));
      }
    }
    return PatternSet.of(all, ignoreCase, source);
  }
}
