package dev.vyre.cli.graph;

import dev.vyre.cli.OutputFiles;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.GraphGenerators;
import dev.vyre.graph.MatrixMarketWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code vyre graph gen}: writes a generated graph as a Matrix Market file that {@code vyre graph} reads. */
@Command(name = "gen", mixinStandardHelpOptions = true,
    description = {"Generate a test graph and write it as a symmetric (undirected) Matrix Market pattern file.",
        "Self loops and duplicate edges are dropped, as in every graph vyre builds, so a random graph has somewhat"
            + " fewer edges than asked for. The same arguments and seed give the same file."},
    subcommands = {GraphGenCommand.Kron.class, GraphGenCommand.Grid.class, GraphGenCommand.Uniform.class})
final class GraphGenCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** Every generator: writes the graph to {@code -o} and says what it wrote. */
  abstract static class Generator implements Callable<Integer> {

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE.mtx", description = "Where to write the graph.")
    Path output;

    abstract CsrGraph generate();

    @Override
    public Integer call() {
      OutputFiles.requireWritable("--output", output);
      long started = System.nanoTime();
      try (CsrGraph graph = generate()) {
        MatrixMarketWriter.write(graph, output);
        System.out.printf("wrote %s: %,d vertices, %,d undirected edges, in %.3f s%n", output, graph.vertexCount(),
            graph.inputEdgeCount(), (System.nanoTime() - started) / 1e9);
      }
      return 0;
    }
  }

  /** {@code vyre graph gen kron}. */
  @Command(name = "kron", mixinStandardHelpOptions = true, sortOptions = false,
      description = {"A Kronecker (R-MAT) graph with Graph500's initiator (0.57, 0.19, 0.19, 0.05): 2^scale vertices"
          + " and edge-factor x 2^scale random edges before self loops and duplicates are dropped.",
          "Vertex ids are not permuted: vertex 0 is the largest hub."})
  static final class Kron extends Generator {

    @Option(names = "--scale", required = true, paramLabel = "N", description = "log2 of the vertex count, 0 to 30.")
    int scale;

    @Option(names = "--edge-factor", defaultValue = "16", paramLabel = "K",
        description = "Edges a vertex, before cleaning (default: ${DEFAULT-VALUE}, Graph500's).")
    int edgeFactor;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "X", description = "The seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Override
    CsrGraph generate() {
      return GraphGenerators.kronecker(scale, edgeFactor, seed);
    }
  }

  /** {@code vyre graph gen grid}. */
  @Command(name = "grid", mixinStandardHelpOptions = true, sortOptions = false,
      description = "A rows x cols grid: vertex r * cols + c is joined to its up, down, left and right neighbours,"
          + " without wrap-around (no self loops or duplicates to drop).")
  static final class Grid extends Generator {

    @Option(names = "--rows", required = true, paramLabel = "R", description = "Rows, zero or more.")
    int rows;

    @Option(names = "--cols", required = true, paramLabel = "C", description = "Columns, zero or more.")
    int cols;

    @Override
    CsrGraph generate() {
      return GraphGenerators.grid(rows, cols);
    }
  }

  /** {@code vyre graph gen uniform}. */
  @Command(name = "uniform", mixinStandardHelpOptions = true, sortOptions = false,
      description = "A uniform random graph: vertices x degree / 2 edges, each joining two vertices drawn uniformly, so"
          + " the mean degree is about --degree (a little less once self loops and duplicates are dropped).")
  static final class Uniform extends Generator {

    @Option(names = "--vertices", required = true, paramLabel = "N", description = "Vertices, zero or more.")
    int vertices;

    @Option(names = "--degree", defaultValue = "16", paramLabel = "D",
        description = "The mean degree wanted (default: ${DEFAULT-VALUE}).")
    int degree;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "X", description = "The seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Override
    CsrGraph generate() {
      return GraphGenerators.uniform(vertices, degree, seed);
    }
  }
}
