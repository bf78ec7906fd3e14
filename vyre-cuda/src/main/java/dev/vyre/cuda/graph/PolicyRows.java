package dev.vyre.cuda.graph;

import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import dev.vyre.graph.frontier.FrontierCalibration;
import java.util.Optional;
import java.util.Set;

/**
 * The rows of the decision port's batch kernel ({@code vyre_frontier_decide_batch} in
 * {@code frontier/decide.cu}): one question to a {@link dev.vyre.graph.frontier.FrontierPolicy} a
 * row, {@link #IN_WORDS} longs, and one decision an answer, {@link #OUT_WORDS} longs.
 */
final class PolicyRows {

  static final int IN_WORDS = 13;
  static final int OUT_WORDS = 4;

  private PolicyRows() {}

  /** Writes the question "decide(frontierVertices, frontierEdges, previous)" of a policy built from the rest at row {@code row}. */
  static void put(long[] rows, int row, int vertices, long edges, long requiredBytes, long budgetBytes, long readbackBytes,
      FrontierCalibration calibration, Set<MegakernelExecutionTopology> fitting,
      Optional<MegakernelExecutionTopology> forced, long frontierVertices, long frontierEdges,
      MegakernelExecutionTopology previous) {
    long mask = 0;
    for (MegakernelExecutionTopology topology : fitting) {
      mask |= 1L << topology.ordinal();
    }
    long[] words = {vertices, edges, requiredBytes, budgetBytes, readbackBytes,
        Double.doubleToRawLongBits(calibration.barrierNanos()), Double.doubleToRawLongBits(calibration.edgeNanos()),
        Double.doubleToRawLongBits(calibration.fusedEdgeNanos()), mask,
        forced.map(t -> (long) t.ordinal()).orElse(-1L), frontierVertices, frontierEdges,
        previous == null ? -1 : previous.ordinal()};
    System.arraycopy(words, 0, rows, row * IN_WORDS, IN_WORDS);
  }

  /** The decision of answer {@code row}. */
  static MegakernelTopologyDecision decision(long[] answers, int row) {
    int at = row * OUT_WORDS;
    return new MegakernelTopologyDecision(MegakernelExecutionTopology.values()[(int) answers[at]], answers[at + 1],
        answers[at + 2], answers[at + 3]);
  }
}
