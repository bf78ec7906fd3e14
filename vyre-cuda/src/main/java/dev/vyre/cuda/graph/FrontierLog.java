package dev.vyre.cuda.graph;

import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import dev.vyre.graph.frontier.AfforestPhase;
import dev.vyre.graph.frontier.FrontierCalibration;
import dev.vyre.graph.frontier.FrontierLevel;
import dev.vyre.graph.frontier.FrontierPolicy;
import dev.vyre.graph.frontier.FrontierResidency;
import java.util.ArrayList;
import java.util.List;

/**
 * What the frontier kernel leaves for the host: the state block's words ({@code VF_STATE_*} in
 * {@code frontier/frontier.cu}) and the level log, a {@link #LOG_WORDS}-long entry a level that
 * wraps after its capacity, read back into {@link FrontierLevel} records. Afforest's kernel keeps
 * its phases in the same log, an entry a phase (step, round, vertices, edges, nanos), and their
 * count where a traversal keeps its levels.
 */
final class FrontierLog {

  /** Longs of the state block. */
  static final int STATE_WORDS = 48;
  /** Level L's input frontier counter {vertices, edges} is at 2 * (L % 3). */
  static final int STATE_COUNTERS = 0;
  static final int STATE_LEVELS = 32;
  static final int STATE_T_START = 33;
  static final int STATE_T_END = 34;
  static final int STATE_BARRIER_NANOS = 35;
  static final int STATE_EDGE_NANOS = 36;
  static final int STATE_FUSED_EDGE_NANOS = 39;
  /** A vertex of more edges is a hub ({@code VF_HUB_DEGREE}): the residency plan's figure. */
  static final int HUB_DEGREE = FrontierResidency.HUB_DEGREE;
  /** Longs of a level's entry: frontier vertices, frontier edges, topology, three unused, nanos. */
  static final int LOG_WORDS = 8;

  private FrontierLog() {}

  /**
   * Ints of one frontier queue: n vertices, the hubs among them, then room for the graph's in-hubs
   * (queue 0's), at most m / (HUB_DEGREE + 1) each.
   */
  static long queueInts(long n, long m) {
    return n + 2 * (m / (HUB_DEGREE + 1));
  }

  /** The calibration the kernel measured. */
  static FrontierCalibration calibration(long[] state) {
    return new FrontierCalibration(Double.longBitsToDouble(state[STATE_BARRIER_NANOS]),
        Double.longBitsToDouble(state[STATE_EDGE_NANOS]), Double.longBitsToDouble(state[STATE_FUSED_EDGE_NANOS]));
  }

  /** Levels the log holds when a run took {@code levels}: the last {@code capacity} of them. */
  static int entries(long levels, int capacity) {
    return (int) Math.min(levels, capacity);
  }

  /**
   * The levels of a run of {@code levels} levels from its log of {@code capacity} entries (entry i
   * holds level L with L % capacity == i): every level, or the last {@code capacity} when the log
   * wrapped. The device logs each level's topology; the decision's pressures, which depend on the
   * frontier's edges alone, are {@code policy}'s (the kernel's decision port gives the same, bit for
   * bit).
   *
   * @param log the first {@link #entries} entries of the log, {@link #LOG_WORDS} longs each
   * @param policy the run's policy, with the calibration the kernel measured
   */
  static List<FrontierLevel> decode(long[] log, long levels, int capacity, FrontierPolicy policy) {
    int kept = entries(levels, capacity);
    List<FrontierLevel> decoded = new ArrayList<>(kept);
    for (long level = levels - kept; level < levels; level++) {
      int at = (int) (level % capacity) * LOG_WORDS;
      MegakernelTopologyDecision decision = policy.decide(log[at], log[at + 1], null)
          .withTopology(MegakernelExecutionTopology.values()[(int) log[at + 2]]);
      decoded.add(new FrontierLevel((int) level, log[at], log[at + 1], decision, log[at + 6]));
    }
    return decoded;
  }

  /** Afforest's {@code phases} phases from the first entries of its log. */
  static List<AfforestPhase> decodePhases(long[] log, long phases) {
    List<AfforestPhase> decoded = new ArrayList<>((int) phases);
    for (int phase = 0; phase < phases; phase++) {
      int at = phase * LOG_WORDS;
      decoded.add(new AfforestPhase(AfforestPhase.Step.values()[(int) log[at]], (int) log[at + 1], log[at + 2],
          log[at + 3], log[at + 4]));
    }
    return decoded;
  }
}
