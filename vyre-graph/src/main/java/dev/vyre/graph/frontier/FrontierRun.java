package dev.vyre.graph.frontier;

import java.util.List;

/**
 * The result of one traversal.
 *
 * @param algorithm what was computed
 * @param backend the backend that ran it ({@code cuda}, {@code reference})
 * @param values per vertex: the BFS depth (-1 unreachable) or the component label (smallest id)
 * @param parents per vertex for BFS (-1 unreachable, the source itself), empty for components
 * @param levels every level in order
 * @param nanos the traversal's time on the device or the workers, from the first level's start to
 *     the last level's end (not the graph's upload or the results' download)
 * @param residency the memory plan the run followed
 * @param calibration the costs measured before the first level
 */
public record FrontierRun(FrontierAlgorithm algorithm, String backend, int[] values, int[] parents,
    List<FrontierLevel> levels, long nanos, FrontierResidency residency, FrontierCalibration calibration) {

  public FrontierRun {
    levels = List.copyOf(levels);
  }
}
