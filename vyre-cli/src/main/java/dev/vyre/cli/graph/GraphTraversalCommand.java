package dev.vyre.cli.graph;

import dev.vyre.cli.OutputFiles;
import dev.vyre.driver.error.InputException;
import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.EdgeListReader;
import dev.vyre.graph.MatrixMarketReader;
import dev.vyre.graph.frontier.FrontierBackend;
import dev.vyre.graph.frontier.FrontierEngine;
import dev.vyre.graph.frontier.FrontierEngines;
import dev.vyre.graph.frontier.FrontierOptions;
import dev.vyre.graph.frontier.FrontierRun;
import dev.vyre.runtime.spi.Availability;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What {@code vyre graph bfs} and {@code vyre graph cc} share: reading GRAPH, choosing the backend,
 * running on an engine, and reporting the run (the values to {@code --output}, a summary to
 * stdout, the backend, memory plan and levels to stderr with {@code --verbose}).
 */
abstract class GraphTraversalCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "GRAPH", description = "A .mtx file (Matrix Market; symmetric ones are"
      + " undirected) or else an edge list: one 'src dst' a line, 0-based ids, # starts a comment.")
  Path graphFile;

  @Option(names = "--undirected", description = "Read the edge list as undirected: each line stands for both"
      + " directions (default: directed). A .mtx file's header says its own symmetry.")
  boolean undirected;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Also write one line per vertex, in vertex"
      + " order: vertex<TAB>value, 0-based ids.")
  Path output;

  @Option(names = "--json", description = "Print the summary as one JSON object, with an entry per level.")
  boolean json;

  @Option(names = "--backend", defaultValue = "auto",
      description = "auto | cuda | reference: auto takes the usable backend of highest precedence (default: ${DEFAULT-VALUE}).")
  String backend;

  @Option(names = "--topology", paramLabel = "TOPOLOGY", description = "Run every level with this topology instead of"
      + " the selector's choice: ${COMPLETION-CANDIDATES}.")
  MegakernelExecutionTopology topology;

  @Option(names = "--memory-budget", paramLabel = "BYTES", description = "The bytes the memory plan must fit (default:"
      + " the device's free memory; on the reference backend, the heap's).")
  Long memoryBudget;

  @Option(names = {"-v", "--verbose"}, description = "Print to stderr the backend chosen and why, the memory plan, the"
      + " calibration, and each level: its frontier, topology and the decision's explanation, and its time.")
  boolean verbose;

  /** Checks the algorithm's own options against the graph, before the engine starts. */
  abstract void check(CsrGraph graph);

  /** The BFS source, or -1 for components. */
  abstract int source();

  /** Runs the algorithm. */
  abstract FrontierRun traverse(FrontierEngine engine, CsrGraph graph, FrontierOptions options);

  @Override
  public Integer call() {
    String command = spec.qualifiedName();
    PrintStream err = System.err;
    if (memoryBudget != null && memoryBudget <= 0) {
      throw InputException.of("--memory-budget", memoryBudget + " bytes", "give a positive number of bytes");
    }
    boolean matrixMarket = graphFile.getFileName() != null
        && graphFile.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".mtx");
    if (undirected && matrixMarket) {
      throw InputException.of("--undirected", graphFile + " is a Matrix Market file, whose header says whether it is"
          + " symmetric (undirected)", "drop --undirected, or write the matrix as symmetric");
    }
    OutputFiles.requireWritable("--output", output);
    FrontierBackend chosen = FrontierEngines.select(backend);
    if (verbose) {
      err.println(command + ": backend: " + chosen.name() + ", " + why(chosen));
    }
    long started = System.nanoTime();
    try (CsrGraph graph = matrixMarket ? MatrixMarketReader.read(graphFile) : EdgeListReader.read(graphFile, undirected)) {
      if (verbose) {
        err.printf("%s: read %s in %.3f s: %s%n", command, graphFile, (System.nanoTime() - started) / 1e9, graph);
      }
      check(graph);
      FrontierOptions options = FrontierOptions.defaults();
      if (topology != null) {
        options = options.forcing(topology);
      }
      if (memoryBudget != null) {
        options = options.withMemoryBudget(memoryBudget);
      }
      FrontierRun run;
      try (FrontierEngine engine = chosen.open()) {
        run = traverse(engine, graph, options);
      }
      if (output != null) {
        VertexValues.write(output, run.values());
      }
      GraphSummary summary = GraphSummary.of(graphFile.toString(), graph, run, source());
      if (verbose) {
        summary.verbose(command, err);
      }
      System.out.print(json ? summary.json() + "\n" : summary.text());
    }
    return 0;
  }

  /** Why {@code chosen} runs: the option named it, or it is the usable one of highest precedence. */
  private String why(FrontierBackend chosen) {
    if (!backend.equals("auto")) {
      return "as --backend named (" + chosen.availability().detail() + ")";
    }
    // Each availability() probes the machine (the CUDA driver, NVRTC): once a backend.
    return "the usable backend of highest precedence (auto) among " + FrontierEngines.backends().stream()
        .map(b -> {
          Availability availability = b.availability();
          return b.name() + " (precedence " + b.precedence() + ", " + (availability.usable() ? "usable: "
              : "unusable: ") + availability.detail() + ")";
        })
        .collect(Collectors.joining(", "));
  }
}
