package dev.vyre.cli.graph;

import dev.vyre.driver.error.InputException;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.frontier.FrontierEngine;
import dev.vyre.graph.frontier.FrontierOptions;
import dev.vyre.graph.frontier.FrontierRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code vyre graph cc}: connected components on the frontier engine, by Afforest or by label propagation. */
@Command(name = "cc", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Connected components (weak ones on a directed graph) on the frontier engine.",
        "Prints a summary: vertices, edges, components, the phases (Afforest) or levels (label propagation) and the"
            + " time.",
        "--output FILE writes each vertex's component label: the smallest vertex id of its component."},
    footer = {"", "Exit status: 0 on success, 2 on an error (its message ends with Fix: ...)."})
final class GraphCcCommand extends GraphTraversalCommand {

  static final String AFFOREST = "afforest";
  static final String LABEL_PROPAGATION = "label-propagation";

  @Option(names = "--algorithm", defaultValue = AFFOREST, paramLabel = "ALGORITHM", description = "afforest (union-find"
      + " over sampled neighbours, then the edges outside the largest component; the default) or label-propagation"
      + " (level by level on the engine's topologies, which --topology forces).")
  String algorithm;

  @Override
  void check(CsrGraph graph) {
    if (!algorithm.equals(AFFOREST) && !algorithm.equals(LABEL_PROPAGATION)) {
      throw InputException.of("--algorithm", "unknown algorithm '" + algorithm + "'",
          "use " + AFFOREST + " or " + LABEL_PROPAGATION);
    }
  }

  @Override
  int source() {
    return -1;
  }

  @Override
  FrontierRun traverse(FrontierEngine engine, CsrGraph graph, FrontierOptions options) {
    return algorithm.equals(AFFOREST) ? engine.afforest(graph, options) : engine.labelPropagation(graph, options);
  }
}
