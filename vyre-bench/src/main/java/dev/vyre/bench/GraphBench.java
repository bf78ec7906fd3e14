package dev.vyre.bench;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.GraphGenerators;
import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierEngine;
import dev.vyre.graph.frontier.FrontierLevel;
import dev.vyre.graph.frontier.FrontierOptions;
import dev.vyre.graph.frontier.FrontierRun;
import dev.vyre.graph.frontier.LevelBreakdown;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * What {@code vyre bench graph} measures: BFS from the same sources on generated graphs (Kronecker,
 * grid, uniform random) by four contenders, the frontier engine on the best backend ({@code
 * auto}), the same backend launching once per level (CUDA's baseline), the reference backend on
 * all cores and a plain serial BFS, then connected components on the engine (Afforest, then label
 * propagation for comparison) and on the reference backend (Afforest), each timed once after an
 * untimed run. Every answer is checked against the serial traversal's; a wrong one ends the
 * bench with an error. Sources are random vertices of the largest component, as Graph500 draws
 * them, and the same for every contender; a contender's GTEPS is the harmonic mean over the
 * sources of the input edges within the traversed component over the run's time. Each contender
 * runs once from the first source, untimed and checked, before the timed runs.
 */
public final class GraphBench {

  /** The graphs {@code --graphs} chooses from. */
  public static final List<String> GRAPHS = List.of("kron", "grid", "uniform");
  /** Edges a vertex of the Kronecker graph, Graph500's. */
  public static final int EDGE_FACTOR = 16;
  /** The uniform graph's mean degree. */
  public static final int UNIFORM_DEGREE = 16;
  /** Seeds the generators and the sources' draw, so that two runs measure the same work. */
  public static final long SEED = 1;
  /** The largest square grid whose vertex ids are ints. */
  public static final int MAX_GRID_SIDE = 46_340;

  /** The contenders, as the results name them. */
  public static final String ENGINE = "engine";
  public static final String PER_LEVEL_LAUNCH = "per_level_launch";
  public static final String REFERENCE = "reference";
  public static final String SERIAL = "serial";

  /**
   * One run's settings, the {@code vyre bench graph} options of the same names.
   *
   * @param graphs which of {@link #GRAPHS} to measure, in this order
   * @param scale the Kronecker graph's log2 vertex count, 1 to 30
   * @param gridSide the grid's rows and columns, 2 to {@link #MAX_GRID_SIDE}
   * @param uniformVertices the uniform graph's vertices, 2 or more
   * @param sources BFS sources per graph
   * @param engines opens an engine by backend name ({@code auto}, {@code reference}), as {@code
   *     FrontierEngines::open} does
   */
  public record Settings(List<String> graphs, int scale, int gridSide, int uniformVertices, int sources,
      Function<String, FrontierEngine> engines) {

    /** Refuses settings that measure nothing. */
    public Settings {
      graphs = List.copyOf(graphs);
      Objects.requireNonNull(engines, "engines");
      if (graphs.isEmpty() || !GRAPHS.containsAll(graphs) || graphs.stream().distinct().count() != graphs.size()
          || scale < 1 || scale > 30 || gridSide < 2 || gridSide > MAX_GRID_SIDE || uniformVertices < 2 || sources < 1) {
        throw new IllegalArgumentException("settings that measure nothing: graphs " + graphs + ", scale " + scale
            + ", grid side " + gridSide + ", uniform vertices " + uniformVertices + ", sources " + sources);
      }
    }
  }

  /**
   * One contender's BFS over the sources.
   *
   * @param levels the mean levels a run
   * @param meanLevelMillis the runs' time over their levels
   * @param gteps the harmonic mean over the sources of traversed input edges per nanosecond
   * @param topologyMix levels per topology, over all the runs (empty for the serial BFS)
   * @param breakdown where the grid-wide levels' time went, over all the runs, on a CPU engine's workers; null
   *     elsewhere
   */
  public record BfsMeasure(double levels, double meanLevelMillis, double gteps, Map<String, Long> topologyMix,
      LevelBreakdown breakdown) {}

  /**
   * One contender of one graph.
   *
   * @param contender {@link #ENGINE}, {@link #PER_LEVEL_LAUNCH}, {@link #REFERENCE} or {@link #SERIAL}
   * @param backend the backend that ran it ({@code java} for the serial BFS)
   * @param skipped why it was not measured, or null
   * @param measure what was measured, or null when skipped
   */
  public record BfsResult(String contender, String backend, String skipped, BfsMeasure measure) {}

  /**
   * Connected components by one contender and algorithm.
   *
   * @param contender {@link #ENGINE} or {@link #REFERENCE}
   * @param backend the backend that ran it
   * @param algorithm {@code afforest} or {@code label-propagation}
   * @param steps the phases (Afforest) or levels (label propagation) it took
   * @param seconds the run's time
   * @param components the components found
   */
  public record ComponentsResult(String contender, String backend, String algorithm, int steps, double seconds,
      long components) {}

  /**
   * One graph's results.
   *
   * @param graph its name in {@link #GRAPHS}
   * @param shape how it was generated
   * @param vertices its vertices
   * @param edges its input edges, each undirected edge once, after self loops and duplicates are dropped
   * @param generateSeconds the generator's time
   * @param sources the BFS sources
   * @param bfs every contender, in the order {@link #ENGINE}, {@link #PER_LEVEL_LAUNCH}, {@link #REFERENCE}, {@link #SERIAL}
   * @param components the engine's and the reference backend's
   * @param ratios the engine's GTEPS over each other measured contender's, keyed {@code engine_vs_<contender>}
   */
  public record GraphResult(String graph, String shape, int vertices, long edges, double generateSeconds,
      List<Integer> sources, List<BfsResult> bfs, List<ComponentsResult> components, Map<String, Double> ratios) {}

  /** The whole run: when, on how many cores, and each graph. */
  public record Report(String date, int cores, List<GraphResult> graphs) {}

  private GraphBench() {}

  /** Measures every graph of {@code settings}, printing progress to {@code progress}. */
  public static Report run(Settings settings, PrintStream progress) {
    List<GraphResult> graphs = new ArrayList<>();
    try (FrontierEngine engine = settings.engines().apply("auto");
        FrontierEngine reference = engine.backend().equals("reference") ? null : settings.engines().apply("reference")) {
      progress.println("vyre bench graph: engine on " + engine.backend() + (reference == null ? ""
          : ", and the reference backend"));
      for (String name : settings.graphs()) {
        graphs.add(measure(name, settings, engine, reference, progress));
      }
    }
    return new Report(Instant.now().toString(), Runtime.getRuntime().availableProcessors(), graphs);
  }

  /** A contender that runs on an engine. */
  private record Contender(String name, FrontierEngine engine, FrontierOptions options, Tally tally) {}

  private static GraphResult measure(String name, Settings settings, FrontierEngine engine, FrontierEngine reference,
      PrintStream progress) {
    String shape = switch (name) {
      case "kron" -> "Kronecker scale " + settings.scale() + ", edge factor " + EDGE_FACTOR;
      case "grid" -> settings.gridSide() + " x " + settings.gridSide() + " grid";
      default -> "uniform random, " + settings.uniformVertices() + " vertices, degree " + UNIFORM_DEGREE;
    };
    progress.println("vyre bench graph: " + name + ": generating (" + shape + ")");
    long started = System.nanoTime();
    try (CsrGraph graph = switch (name) {
      case "kron" -> GraphGenerators.kronecker(settings.scale(), EDGE_FACTOR, SEED);
      case "grid" -> GraphGenerators.grid(settings.gridSide(), settings.gridSide());
      default -> GraphGenerators.uniform(settings.uniformVertices(), UNIFORM_DEGREE, SEED);
    }) {
      double generateSeconds = (System.nanoTime() - started) / 1e9;
      SerialTraversal serial = new SerialTraversal(graph);
      int[] labels = serial.components();
      int[] sources = sources(name, labels, settings.sources());
      long edges = graph.inputEdgeCount();
      progress.printf("  %,d vertices, %,d edges, generated in %.3f s; %d source(s)%n", graph.vertexCount(), edges,
          generateSeconds, sources.length);
      List<Contender> contenders = new ArrayList<>();
      contenders.add(new Contender(ENGINE, engine, FrontierOptions.defaults(), new Tally()));
      boolean cuda = engine.backend().equals("cuda");
      if (cuda) {
        contenders.add(new Contender(PER_LEVEL_LAUNCH, engine, FrontierOptions.defaults().launchingPerLevel(),
            new Tally()));
      }
      if (reference != null) {
        contenders.add(new Contender(REFERENCE, reference, FrontierOptions.defaults(), new Tally()));
      }
      int[] depths = new int[graph.vertexCount()];
      serial.bfs(sources[0], depths);
      for (Contender contender : contenders) {
        check(name, sources[0], contender, contender.engine().bfs(graph, sources[0], contender.options()).values(),
            depths);
      }
      Tally serialTally = new Tally();
      for (int i = 0; i < sources.length; i++) {
        int source = sources[i];
        long serialStarted = System.nanoTime();
        int levels = serial.bfs(source, depths);
        long serialNanos = System.nanoTime() - serialStarted;
        long traversed = FrontierRun.traversedEdges(graph, depths);
        serialTally.add(levels, serialNanos, traversed, List.of(), Optional.empty());
        StringBuilder line = new StringBuilder(String.format("  source %d/%d (vertex %d, %d levels): serial %.3f",
            i + 1, sources.length, source, levels, FrontierRun.gteps(traversed, serialNanos)));
        for (Contender contender : contenders) {
          FrontierRun run = contender.engine().bfs(graph, source, contender.options());
          check(name, source, contender, run.values(), depths);
          contender.tally().add(run.levels().size(), run.nanos(), traversed, run.levels(), run.breakdown());
          line.append(String.format(", %s %.3f", contender.name(), FrontierRun.gteps(traversed, run.nanos())));
        }
        progress.println(line.append(" GTEPS"));
      }
      List<BfsResult> bfs = new ArrayList<>();
      for (Contender contender : contenders) {
        bfs.add(new BfsResult(contender.name(), contender.engine().backend(), null, contender.tally().measure()));
        if (contender.name().equals(ENGINE) && !cuda) {
          bfs.add(new BfsResult(PER_LEVEL_LAUNCH, engine.backend(), "skipped: per-level launch is CUDA's baseline",
              null));
        }
      }
      if (reference == null) {
        bfs.add(new BfsResult(REFERENCE, "reference", "skipped: the engine ran on the reference backend", null));
      }
      bfs.add(new BfsResult(SERIAL, "java", null, serialTally.measure()));
      List<ComponentsResult> components = new ArrayList<>();
      components.add(measureComponents(name, graph, ENGINE, engine, FrontierAlgorithm.AFFOREST, labels, progress));
      components.add(measureComponents(name, graph, ENGINE, engine, FrontierAlgorithm.LABEL_PROPAGATION, labels,
          progress));
      if (reference != null) {
        components.add(measureComponents(name, graph, REFERENCE, reference, FrontierAlgorithm.AFFOREST, labels,
            progress));
      }
      Map<String, Double> ratios = new LinkedHashMap<>();
      double engineGteps = bfs.getFirst().measure().gteps();
      for (BfsResult other : bfs.subList(1, bfs.size())) {
        if (other.measure() != null) {
          ratios.put(ENGINE + "_vs_" + other.contender(), engineGteps / other.measure().gteps());
        }
      }
      return new GraphResult(name, shape, graph.vertexCount(), edges, generateSeconds,
          Arrays.stream(sources).boxed().toList(), bfs, components, ratios);
    }
  }

  /** Components by {@code algorithm}: one untimed run checked against union-find, then the timed run, checked too. */
  private static ComponentsResult measureComponents(String graphName, CsrGraph graph, String contender,
      FrontierEngine engine, FrontierAlgorithm algorithm, int[] labels, PrintStream progress) {
    String method = algorithm.name().toLowerCase(Locale.ROOT).replace('_', '-');
    FrontierRun run = null;
    for (int pass = 0; pass < 2; pass++) {
      run = algorithm == FrontierAlgorithm.AFFOREST ? engine.afforest(graph, FrontierOptions.defaults())
          : engine.labelPropagation(graph, FrontierOptions.defaults());
      checkLabels(graphName, contender + " " + method, engine.backend(), run.values(), labels);
    }
    long count = run.componentCount();
    double seconds = run.nanos() / 1e9;
    int steps = algorithm == FrontierAlgorithm.AFFOREST ? run.phases().size() : run.levels().size();
    progress.printf("  components on %s (%s), %s: %,d components, %d %s, %.6f s%n", contender, engine.backend(),
        method, count, steps, algorithm == FrontierAlgorithm.AFFOREST ? "phases" : "levels", seconds);
    return new ComponentsResult(contender, engine.backend(), method, steps, seconds, count);
  }

  private static void checkLabels(String graphName, String contender, String backend, int[] got, int[] labels) {
    for (int v = 0; v < labels.length; v++) {
      if (got.length != labels.length || got[v] != labels[v]) {
        throw wrong(graphName, "components", contender, backend, got.length != labels.length
            ? got.length + " labels for " + labels.length + " vertices"
            : "vertex " + v + " labelled " + got[v] + ", the serial traversal says " + labels[v]);
      }
    }
  }

  /**
   * {@code count} random vertices of the largest component (all of degree > 0: it has at least
   * two vertices), distinct while the component has that many.
   */
  static int[] sources(String graphName, int[] labels, int count) {
    int n = labels.length;
    int[] size = new int[n];
    for (int label : labels) {
      size[label]++;
    }
    int largest = 0;
    for (int v = 1; v < n; v++) {
      largest = size[v] > size[largest] ? v : largest;
    }
    if (size[largest] < 2) {
      throw InputException.of(graphName, "the graph has no edges, so no BFS source of degree > 0",
          "generate a larger graph (vyre bench graph --help)");
    }
    int[] members = new int[size[largest]];
    for (int v = 0, m = 0; v < n; v++) {
      if (labels[v] == largest) {
        members[m++] = v;
      }
    }
    SplittableRandom random = new SplittableRandom(SEED);
    int[] sources = new int[count];
    for (int i = 0; i < count; i++) {
      if (i < members.length) {
        // A partial Fisher-Yates shuffle: the first i members are the sources drawn so far.
        int j = i + random.nextInt(members.length - i);
        int swap = members[j];
        members[j] = members[i];
        members[i] = swap;
        sources[i] = swap;
      } else {
        sources[i] = members[random.nextInt(members.length)];
      }
    }
    return sources;
  }

  private static void check(String graphName, int source, Contender contender, int[] got, int[] depths) {
    for (int v = 0; v < depths.length; v++) {
      if (got.length != depths.length || got[v] != depths[v]) {
        throw wrong(graphName, "BFS from vertex " + source, contender.name(), contender.engine().backend(),
            got.length != depths.length ? got.length + " depths for " + depths.length + " vertices"
                : "vertex " + v + " at depth " + got[v] + ", the serial BFS says " + depths[v]);
      }
    }
  }

  /** A contender computed a wrong answer: the bench must not report its speed. */
  private static IllegalStateException wrong(String graphName, String what, String contender, String backend,
      String difference) {
    return new IllegalStateException("wrong answer on " + graphName + ", " + what + ": " + contender + " (" + backend
        + " backend) gives " + difference);
  }

  /** One contender's runs, summed. */
  private static final class Tally {
    private long runs;
    private long levels;
    private long nanos;
    private double inverseGteps;
    private final Map<MegakernelExecutionTopology, Long> mix = new EnumMap<>(MegakernelExecutionTopology.class);
    private LevelBreakdown breakdown;

    void add(int runLevels, long runNanos, long traversedEdges, List<FrontierLevel> log,
        Optional<LevelBreakdown> runBreakdown) {
      runs++;
      runBreakdown.ifPresent(b -> breakdown = breakdown == null ? b : breakdown.plus(b));
      levels += runLevels;
      nanos += runNanos;
      inverseGteps += 1 / FrontierRun.gteps(traversedEdges, runNanos);
      for (FrontierLevel level : log) {
        mix.merge(level.decision().topology(), 1L, Long::sum);
      }
    }

    BfsMeasure measure() {
      Map<String, Long> topologies = new LinkedHashMap<>();
      mix.forEach((topology, count) -> topologies.put(topology.name(), count));
      return new BfsMeasure(levels / (double) runs, nanos / 1e6 / Math.max(1, levels), runs / inverseGteps, topologies,
          breakdown);
    }
  }
}
