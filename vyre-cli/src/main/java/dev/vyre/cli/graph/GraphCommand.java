package dev.vyre.cli.graph;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code vyre graph}: breadth-first search and connected components on the frontier engine, and graph generators. */
@Command(name = "graph", mixinStandardHelpOptions = true,
    description = {"Graph traversal on the frontier engine: BFS and connected components, each level run with the"
        + " topology the selector picks for it; and generators of test graphs.",
        "GRAPH is a .mtx file (Matrix Market; symmetric ones are undirected) or else an edge list (one 'src dst' a"
            + " line, 0-based ids, # comments; directed unless --undirected)."},
    subcommands = {GraphBfsCommand.class, GraphCcCommand.class, GraphGenCommand.class})
public final class GraphCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
