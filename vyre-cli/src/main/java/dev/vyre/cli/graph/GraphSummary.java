package dev.vyre.cli.graph;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.frontier.AfforestPhase;
import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierLevel;
import dev.vyre.graph.frontier.FrontierRun;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What {@code vyre graph bfs} and {@code cc} report about a run: the graph, the backend, what was
 * reached, the levels and their topologies (or Afforest's phases), the time and, for BFS, GTEPS in
 * Graph500's convention (the input edges within the traversed component over the time; an
 * undirected edge, stored from both ends, counts once).
 *
 * @param graphName the GRAPH argument
 * @param vertices the graph's vertices
 * @param edges its input edges: arcs, or undirected edges counted once
 * @param undirected whether it is undirected
 * @param run the run
 * @param source the BFS source, -1 for components
 * @param reached BFS: the vertices reached; components: the components
 * @param traversedEdges BFS: the input edges within the traversed component; components: 0
 */
record GraphSummary(String graphName, int vertices, long edges, boolean undirected, FrontierRun run, int source,
    long reached, long traversedEdges) {

  /** The summary of {@code run} on {@code graph}, a BFS from {@code source} or components (-1). */
  static GraphSummary of(String graphName, CsrGraph graph, FrontierRun run, int source) {
    long edges = graph.inputEdgeCount();
    if (run.algorithm().labelsComponents()) {
      return new GraphSummary(graphName, graph.vertexCount(), edges, graph.undirected(), run, -1, run.componentCount(),
          0);
    }
    long reached = Arrays.stream(run.values()).filter(depth -> depth >= 0).count();
    return new GraphSummary(graphName, graph.vertexCount(), edges, graph.undirected(), run, source, reached,
        run.traversedEdges(graph));
  }

  private boolean bfs() {
    return run.algorithm() == FrontierAlgorithm.BFS;
  }

  private boolean afforest() {
    return run.algorithm() == FrontierAlgorithm.AFFOREST;
  }

  /** How {@code --json} and the text name the algorithm. */
  private String algorithmName() {
    return run.algorithm().name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private double seconds() {
    return run.nanos() / 1e9;
  }

  /** Billions of traversed edges a second. */
  double gteps() {
    return FrontierRun.gteps(traversedEdges, run.nanos());
  }

  /** The summary for a person, one {@code name: value} line each. */
  String text() {
    StringBuilder text = new StringBuilder();
    text.append(String.format("graph: %s (%,d vertices, %,d edges, %s)%n", graphName, vertices, edges,
        undirected ? "undirected" : "directed"));
    text.append("backend: ").append(run.backend()).append('\n');
    if (bfs()) {
      text.append("source: ").append(source).append('\n');
      text.append(String.format("reached: %,d of %,d vertices%n", reached, vertices));
    } else {
      text.append("algorithm: ").append(algorithmName()).append('\n');
      text.append(String.format("components: %,d%n", reached));
    }
    if (afforest()) {
      text.append("phases: ").append(run.phases().size()).append('\n');
    } else {
      text.append("levels: ").append(run.levels().size()).append('\n');
    }
    text.append(String.format("time: %.6f s%n", seconds()));
    if (bfs()) {
      text.append(String.format("GTEPS: %.6f (%,d edges in the traversed component)%n", gteps(), traversedEdges));
    }
    if (!afforest()) {
      text.append("topologies: ").append(run.topologyMix().entrySet().stream()
          .map(e -> e.getKey().name() + " " + e.getValue()).collect(Collectors.joining(", "))).append('\n');
    }
    return text.toString();
  }

  /** The summary as one JSON object, with an entry per level. */
  String json() {
    ObjectNode node = Json.object();
    node.put("algorithm", bfs() ? "bfs" : "cc");
    node.put("graph", graphName);
    node.put("backend", run.backend());
    node.put("vertices", vertices);
    node.put("edges", edges);
    node.put("undirected", undirected);
    if (bfs()) {
      node.put("source", source);
      node.put("reached", reached);
    } else {
      node.put("method", algorithmName());
      node.put("components", reached);
    }
    node.put("levels", run.levels().size());
    node.put("seconds", seconds());
    if (bfs()) {
      node.put("traversed_edges", traversedEdges);
      node.put("gteps", gteps());
    }
    ObjectNode mix = node.putObject("topology_mix");
    run.topologyMix().forEach((topology, count) -> mix.put(topology.name(), count));
    node.put("memory_plan", run.residency().describe());
    run.calibration().ifPresent(measured -> {
      ObjectNode calibration = node.putObject("calibration");
      calibration.put("barrier_ns", measured.barrierNanos());
      calibration.put("edge_ns", measured.edgeNanos());
      calibration.put("fused_edge_ns", measured.fusedEdgeNanos());
    });
    ArrayNode levels = node.putArray("per_level");
    for (FrontierLevel level : run.levels()) {
      ObjectNode entry = levels.addObject();
      entry.put("level", level.level());
      entry.put("frontier_vertices", level.frontierVertices());
      entry.put("frontier_edges", level.frontierEdges());
      entry.put("topology", level.decision().topology().name());
      entry.put("explanation", level.decision().stableExplanation());
      entry.put("seconds", level.nanos() / 1e9);
    }
    if (afforest()) {
      ArrayNode phases = node.putArray("per_phase");
      for (AfforestPhase phase : run.phases()) {
        ObjectNode entry = phases.addObject();
        entry.put("step", phase.step().name());
        entry.put("round", phase.round());
        entry.put("vertices", phase.vertices());
        entry.put("edges", phase.edges());
        entry.put("seconds", phase.nanos() / 1e9);
      }
    }
    return node.toString();
  }

  /**
   * The {@code --verbose} lines after the run: the memory plan, the calibration, each level (or
   * Afforest's phases), the totals, and on the reference backend where its grid-wide levels' time went.
   */
  void verbose(String command, PrintStream err) {
    err.println(command + ": " + run.residency().describe());
    run.calibration().ifPresent(measured -> err.printf("%s: calibration: barrier %.1f ns, edge %.3f ns, fused edge"
        + " %.3f ns%n", command, measured.barrierNanos(), measured.edgeNanos(), measured.fusedEdgeNanos()));
    for (AfforestPhase phase : run.phases()) {
      err.println(command + ": phase " + phase.describe());
    }
    for (FrontierLevel level : run.levels()) {
      err.printf("%s: level %d: frontier %,d vertices (%,d edges), %s, %.3f ms, %s%n", command, level.level(),
          level.frontierVertices(), level.frontierEdges(), level.decision().topology().name(), level.nanos() / 1e6,
          level.decision().stableExplanation());
    }
    err.printf("%s: %d %s in %.6f s%s%n", command, afforest() ? run.phases().size() : run.levels().size(),
        afforest() ? "phases" : "levels", seconds(),
        bfs() ? String.format(", %.6f GTEPS (%,d edges)", gteps(), traversedEdges) : "");
    run.breakdown().ifPresent(breakdown -> err.println(command + ": grid-wide levels on " + breakdown.describe()));
  }
}
