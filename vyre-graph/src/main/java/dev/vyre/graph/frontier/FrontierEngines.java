package dev.vyre.graph.frontier;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.graph.CsrGraph;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** Finds frontier backends and opens engines by name: {@code auto}, {@code cuda}, {@code reference}. */
public final class FrontierEngines {

  private FrontierEngines() {}

  /**
   * The check every BFS makes of its source before it starts.
   *
   * @throws InputException if {@code source} is not a vertex of {@code graph}
   */
  public static void requireSource(CsrGraph graph, int source) {
    int n = graph.vertexCount();
    if (source < 0 || source >= n) {
      throw InputException.of("bfs source", "vertex " + source + " is not in the graph of " + n + " vertices",
          n == 0 ? "give a graph with vertices" : "give a source from 0 to " + (n - 1L));
    }
  }

  /**
   * The check every Afforest run makes of its options: Afforest runs phases, not levels.
   *
   * @throws InputException if {@code options} force a topology or ask for per-level launches
   */
  public static void requireAfforestOptions(FrontierOptions options) {
    if (options.forcedTopology().isPresent()) {
      throw InputException.of("--topology", options.forcedTopology().get() + " was forced, but a topology is how a"
          + " level runs and Afforest has phases, not levels", "drop --topology, or add --algorithm label-propagation");
    }
    if (options.launchPerLevel()) {
      throw InputException.of("per-level launch", "Afforest has phases, not levels, and runs them in one launch",
          "run label propagation for the per-level baseline");
    }
  }

  /** Every backend on the class path, highest precedence first. */
  public static List<FrontierBackend> backends() {
    List<FrontierBackend> found = new ArrayList<>();
    ServiceLoader.load(FrontierBackend.class).forEach(found::add);
    found.sort(Comparator.comparingInt(FrontierBackend::precedence).reversed());
    return found;
  }

  /** The backend {@code name} names ({@code auto}: the usable one of highest precedence). */
  public static FrontierBackend select(String name) {
    List<FrontierBackend> all = backends();
    List<String> names = all.stream().map(FrontierBackend::name).toList();
    if (name.equals("auto")) {
      return all.stream().filter(b -> b.availability().usable()).findFirst()
          .orElseThrow(() -> PipelineException.backend("no frontier backend is usable here (found " + names
              + "). Fix: run `vyre doctor` to see why"));
    }
    FrontierBackend backend = all.stream().filter(b -> b.name().equals(name)).findFirst()
        .orElseThrow(() -> InputException.of("--backend", "unknown backend '" + name + "'",
            "use auto or one of " + names));
    var availability = backend.availability();
    if (!availability.usable()) {
      throw PipelineException.backend("backend " + name + " is not usable here: " + availability.detail()
          + ". Fix: use --backend auto, or run `vyre doctor`");
    }
    return backend;
  }

  /** Opens an engine on the backend {@code name} names. */
  public static FrontierEngine open(String name) {
    return select(name).open();
  }
}
