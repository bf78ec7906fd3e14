package dev.vyre.cli.graph;

import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.frontier.FrontierEngine;
import dev.vyre.graph.frontier.FrontierOptions;
import dev.vyre.graph.frontier.FrontierRun;
import picocli.CommandLine.Command;

/** {@code vyre graph cc}: connected components by label propagation on the frontier engine. */
@Command(name = "cc", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Connected components (weak ones on a directed graph) on the frontier engine.",
        "Prints a summary: vertices, edges, components, levels, time and the levels each topology ran.",
        "--output FILE writes each vertex's component label: the smallest vertex id of its component."},
    footer = {"", "Exit status: 0 on success, 2 on an error (its message ends with Fix: ...)."})
final class GraphCcCommand extends GraphTraversalCommand {

  @Override
  void check(CsrGraph graph) {}

  @Override
  int source() {
    return -1;
  }

  @Override
  FrontierRun traverse(FrontierEngine engine, CsrGraph graph, FrontierOptions options) {
    return engine.components(graph, options);
  }
}
