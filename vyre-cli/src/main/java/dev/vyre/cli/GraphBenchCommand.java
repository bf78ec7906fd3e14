package dev.vyre.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.vyre.bench.GraphBench;
import dev.vyre.driver.error.InputException;
import dev.vyre.graph.frontier.FrontierEngines;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code vyre bench graph}: BFS and components on generated graphs, the frontier engine against
 * per-level launches, the reference backend and a serial BFS, every answer checked. The measuring
 * is {@link GraphBench}'s; this prints its report as a table or as JSON.
 */
@Command(name = "graph", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"BFS and connected components on generated graphs: the frontier engine on the best backend, the"
        + " same backend launching once per level (CUDA's baseline), the reference backend on all cores and a serial"
        + " Java BFS, from the same random sources in each graph's largest component.",
        "Reports per graph and contender the levels, the mean time a level, GTEPS (the harmonic mean over the sources"
            + " of the input edges within the traversed component over the time) and the levels each topology ran;"
            + " then components once on the engine and the reference backend. Every depth and label is checked"
            + " against the serial traversal's; a wrong one ends the bench with an error. Progress goes to stderr."})
final class GraphBenchCommand implements Callable<Integer> {

  @Option(names = "--graphs", defaultValue = "kron,grid,uniform", split = ",", paramLabel = "NAME",
      description = "Which graphs, in order: kron, grid, uniform (default: ${DEFAULT-VALUE}).")
  List<String> graphs;

  @Option(names = "--scale", defaultValue = "22", paramLabel = "N",
      description = "The Kronecker graph's log2 vertex count, 1 to 30; edge factor " + GraphBench.EDGE_FACTOR
          + " (default: ${DEFAULT-VALUE}).")
  int scale;

  @Option(names = "--grid-side", defaultValue = "2048", paramLabel = "N",
      description = "The grid's rows and columns (default: ${DEFAULT-VALUE}).")
  int gridSide;

  @Option(names = "--uniform-vertices", defaultValue = "4194304", paramLabel = "N",
      description = "The uniform random graph's vertices; degree " + GraphBench.UNIFORM_DEGREE + " (default: ${DEFAULT-VALUE}).")
  int uniformVertices;

  @Option(names = "--sources", defaultValue = "16", paramLabel = "N",
      description = "BFS sources per graph (default: ${DEFAULT-VALUE}).")
  int sources;

  @Option(names = "--json", arity = "0..1", fallbackValue = "-", paramLabel = "FILE",
      description = "Print the results as one JSON object instead of the table; with FILE, write them there and print"
          + " the table.")
  String json;

  @Override
  public Integer call() throws IOException {
    for (String graph : graphs) {
      if (!GraphBench.GRAPHS.contains(graph)) {
        throw InputException.of("--graphs", "unknown graph '" + graph + "'", "choose from " + GraphBench.GRAPHS);
      }
    }
    if (graphs.stream().distinct().count() != graphs.size()) {
      throw InputException.of("--graphs", graphs + " names a graph twice", "name each graph once");
    }
    check("--scale", scale, 1, 30);
    check("--grid-side", gridSide, 2, GraphBench.MAX_GRID_SIDE);
    check("--uniform-vertices", uniformVertices, 2, Integer.MAX_VALUE);
    check("--sources", sources, 1, 1 << 20);
    Path jsonFile = json == null || json.equals("-") ? null : Path.of(json);
    OutputFiles.requireWritable("--json", jsonFile);
    GraphBench.Report report = GraphBench.run(new GraphBench.Settings(graphs, scale, gridSide, uniformVertices, sources,
        FrontierEngines::open), System.err);
    ObjectMapper mapper = new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .enable(SerializationFeature.INDENT_OUTPUT);
    PrintStream out = System.out;
    if ("-".equals(json)) {
      out.println(mapper.writeValueAsString(report));
      return 0;
    }
    if (jsonFile != null) {
      Files.writeString(jsonFile, mapper.writeValueAsString(report));
    }
    table(out, report);
    return 0;
  }

  /** Per graph: a row per contender, then the components line. */
  private static void table(PrintStream out, GraphBench.Report report) {
    for (GraphBench.GraphResult graph : report.graphs()) {
      out.printf("%n%s: %s; %,d vertices, %,d edges; %d sources%n", graph.graph(), graph.shape(), graph.vertices(),
          graph.edges(), graph.sources().size());
      out.printf("  %-18s %-10s %7s %10s %10s %10s  %s%n", "contender", "backend", "levels", "ms/level", "GTEPS",
          "engine vs", "topologies");
      for (GraphBench.BfsResult result : graph.bfs()) {
        GraphBench.BfsMeasure measure = result.measure();
        if (measure == null) {
          out.printf("  %-18s %-10s %s%n", result.contender(), result.backend(), result.skipped());
          continue;
        }
        Double ratio = graph.ratios().get(GraphBench.ENGINE + "_vs_" + result.contender());
        out.printf("  %-18s %-10s %7.1f %10.4f %10.4f %10s  %s%n", result.contender(), result.backend(), measure.levels(),
            measure.meanLevelMillis(), measure.gteps(), ratio == null ? "-" : String.format("%.2fx", ratio),
            mix(measure.topologyMix()));
      }
      // Where a CPU engine's grid-wide levels spent their time: what limits it once a level's edges are few.
      for (GraphBench.BfsResult result : graph.bfs()) {
        if (result.measure() != null && result.measure().breakdown() != null) {
          out.printf("  %s (%s) on %s%n", result.contender(), result.backend(), result.measure().breakdown().describe());
        }
      }
      out.println("  components: " + graph.components().stream()
          .map(cc -> String.format("%s (%s) %s %,d in %d %s, %.6f s", cc.contender(), cc.backend(), cc.algorithm(),
              cc.components(), cc.steps(), cc.algorithm().equals("afforest") ? "phases" : "levels", cc.seconds()))
          .collect(Collectors.joining("; ")));
    }
  }

  private static String mix(Map<String, Long> topologies) {
    return topologies.isEmpty() ? "-" : topologies.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
        .collect(Collectors.joining(", "));
  }

  private static void check(String option, long value, long least, long most) {
    if (value < least || value > most) {
      throw InputException.of(option, value + " is outside " + least + ".." + most,
          "pass a value in that range (vyre bench graph --help)");
    }
  }
}
