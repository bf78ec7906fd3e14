package dev.vyre.cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierCalibration;
import dev.vyre.graph.frontier.FrontierLevel;
import dev.vyre.graph.frontier.FrontierPolicy;
import dev.vyre.graph.frontier.FrontierResidency;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Reading the device's level log and state block back. */
class FrontierLogTest {

  private static long[] log(int capacity, long levels) {
    long[] log = new long[FrontierLog.entries(levels, capacity) * FrontierLog.LOG_WORDS];
    for (long level = 0; level < levels; level++) {
      int at = (int) (level % capacity) * FrontierLog.LOG_WORDS;
      log[at] = 100 + level;
      log[at + 1] = 1000 + level;
      log[at + 2] = level % MegakernelExecutionTopology.values().length;
      log[at + 6] = 10 * level;
    }
    return log;
  }

  private static final FrontierPolicy POLICY = new FrontierPolicy(5_000, 80_000,
      FrontierResidency.plan(FrontierAlgorithm.BFS, 5_000, 80_000, false, 1L << 30), 40_000,
      new FrontierCalibration(1200.0, 0.01, 0.5), Optional.empty());

  @Test
  void everyLevelComesBackInOrderWithItsTopologyAndThePolicysPressures() {
    List<FrontierLevel> levels = FrontierLog.decode(log(8, 5), 5, 8, POLICY);
    assertEquals(5, levels.size());
    FrontierLevel third = levels.get(2);
    MegakernelTopologyDecision policys = POLICY.decide(102, 1002, null);
    assertEquals(new FrontierLevel(2, 102, 1002, new MegakernelTopologyDecision(
        MegakernelExecutionTopology.BlockDenseFrontier, policys.memoryPressureBps(), policys.averageDegreeBps(),
        policys.launchPressureBps()), 20), third);
  }

  @Test
  void aWrappedLogKeepsTheLastLevelsWithTheirNumbers() {
    List<FrontierLevel> levels = FrontierLog.decode(log(4, 11), 11, 4, POLICY);
    assertEquals(List.of(7, 8, 9, 10), levels.stream().map(FrontierLevel::level).toList());
    assertEquals(110, levels.getLast().frontierVertices());
    assertEquals(100, levels.getLast().nanos());
  }

  @Test
  void aRunWithoutLevelsHasNone() {
    assertEquals(List.of(), FrontierLog.decode(new long[0], 0, 4, POLICY));
  }

  @Test
  void theCalibrationIsReadFromItsDoubleBits() {
    long[] state = new long[FrontierLog.STATE_WORDS];
    state[FrontierLog.STATE_BARRIER_NANOS] = Double.doubleToRawLongBits(1234.5);
    state[FrontierLog.STATE_EDGE_NANOS] = Double.doubleToRawLongBits(0.0078125);
    state[FrontierLog.STATE_FUSED_EDGE_NANOS] = Double.doubleToRawLongBits(0.25);
    assertEquals(new FrontierCalibration(1234.5, 0.0078125, 0.25), FrontierLog.calibration(state));
  }
}
