package dev.vyre.graph.frontier;

import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.graph.CsrGraph;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The result of one traversal.
 *
 * @param algorithm what was computed
 * @param backend the backend that ran it ({@code cuda}, {@code reference})
 * @param values per vertex: the BFS depth (-1 unreachable) or the component label (smallest id)
 * @param parents per vertex for BFS (-1 unreachable, the source itself), empty for components
 * @param levels every level in order (none for Afforest)
 * @param phases Afforest's phases in order (none for the level-by-level algorithms)
 * @param nanos the traversal's time on the device or the workers, from the first level's (or
 *     phase's) start to the last one's end (not the graph's upload or the results' download)
 * @param residency the memory plan the run followed
 * @param calibration the costs measured before the first level; empty for Afforest, which has no
 *     levels to decide
 * @param breakdown where the grid-wide levels' time went on a CPU engine's workers; empty elsewhere
 */
public record FrontierRun(FrontierAlgorithm algorithm, String backend, int[] values, int[] parents,
    List<FrontierLevel> levels, List<AfforestPhase> phases, long nanos, FrontierResidency residency,
    Optional<FrontierCalibration> calibration, Optional<LevelBreakdown> breakdown) {

  public FrontierRun {
    levels = List.copyOf(levels);
    phases = List.copyOf(phases);
  }

  /** A run with no breakdown of its levels' time (a GPU's, or Afforest's). */
  public FrontierRun(FrontierAlgorithm algorithm, String backend, int[] values, int[] parents, List<FrontierLevel> levels,
      List<AfforestPhase> phases, long nanos, FrontierResidency residency, Optional<FrontierCalibration> calibration) {
    this(algorithm, backend, values, parents, levels, phases, nanos, residency, calibration, Optional.empty());
  }

  /** Levels per topology, in the topologies' order. */
  public Map<MegakernelExecutionTopology, Long> topologyMix() {
    Map<MegakernelExecutionTopology, Long> mix = new EnumMap<>(MegakernelExecutionTopology.class);
    levels.forEach(level -> mix.merge(level.decision().topology(), 1L, Long::sum));
    return mix;
  }

  /** Components: how many there are (the vertices that label themselves). */
  public long componentCount() {
    long count = 0;
    for (int v = 0; v < values.length; v++) {
      count += values[v] == v ? 1 : 0;
    }
    return count;
  }

  /** BFS on {@code graph}: the input edges within the traversed component ({@link #traversedEdges(CsrGraph, int[])}). */
  public long traversedEdges(CsrGraph graph) {
    return traversedEdges(graph, values);
  }

  /**
   * Graph500's count of traversed edges for TEPS: the input edges within the part of {@code graph}
   * that {@code depths} reaches (depth 0 or more), an undirected edge, stored from both ends, once.
   */
  public static long traversedEdges(CsrGraph graph, int[] depths) {
    long arcs = 0;
    for (int v = 0; v < depths.length; v++) {
      if (depths[v] >= 0) {
        arcs += graph.degree(v);
      }
    }
    return graph.undirected() ? arcs / 2 : arcs;
  }

  /** Traversed edges a nanosecond: billions a second (a run of 0 ns counts as 1). */
  public static double gteps(long traversedEdges, long nanos) {
    return traversedEdges / (double) Math.max(1, nanos);
  }
}
