package dev.vyre.cli.graph;

import dev.vyre.driver.error.InputException;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.frontier.FrontierEngine;
import dev.vyre.graph.frontier.FrontierOptions;
import dev.vyre.graph.frontier.FrontierRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code vyre graph bfs}: breadth-first search from one vertex on the frontier engine. */
@Command(name = "bfs", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Breadth-first search from --source on the frontier engine.",
        "Prints a summary: vertices, edges, vertices reached, levels, time, GTEPS (Graph500's: the input edges within"
            + " the traversed component over the time, an undirected edge once) and the levels each topology ran.",
        "--output FILE writes each vertex's depth: the source 0, -1 when unreachable."},
    footer = {"", "Exit status: 0 on success, 2 on an error (its message ends with Fix: ...).", "Example:",
        "  vyre graph gen kron --scale 16 -o kron16.mtx && vyre graph bfs kron16.mtx --source 0 --verbose"})
final class GraphBfsCommand extends GraphTraversalCommand {

  @Option(names = {"-s", "--source"}, required = true, paramLabel = "VERTEX", description = "The 0-based source vertex.")
  int source;

  @Override
  void check(CsrGraph graph) {
    if (source < 0 || source >= graph.vertexCount()) {
      throw InputException.of("--source", source + " is not a vertex of " + graphFile + ", whose ids run from 0 to "
          + (graph.vertexCount() - 1L), "pass a 0-based vertex id below " + graph.vertexCount());
    }
  }

  @Override
  int source() {
    return source;
  }

  @Override
  FrontierRun traverse(FrontierEngine engine, CsrGraph graph, FrontierOptions options) {
    return engine.bfs(graph, source, options);
  }
}
