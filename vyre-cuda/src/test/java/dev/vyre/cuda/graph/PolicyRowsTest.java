package dev.vyre.cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import dev.vyre.graph.frontier.FrontierCalibration;
import java.util.EnumSet;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The decision port's rows, as the batch kernel reads and writes them. */
class PolicyRowsTest {

  @Test
  void aQuestionIsThirteenWordsInTheKernelsOrder() {
    long[] rows = new long[2 * PolicyRows.IN_WORDS];
    PolicyRows.put(rows, 1, 1000, 16_000, 5, 10, 8000, new FrontierCalibration(1500.0, Double.NaN, 0.375),
        EnumSet.of(MegakernelExecutionTopology.SparseFrontier, MegakernelExecutionTopology.FusedWave), Optional.empty(),
        30, 900, MegakernelExecutionTopology.HybridFrontier);
    long[] expected = {1000, 16_000, 5, 10, 8000, Double.doubleToRawLongBits(1500.0),
        Double.doubleToRawLongBits(Double.NaN), Double.doubleToRawLongBits(0.375), 0b100010, -1, 30, 900, 4};
    for (int i = 0; i < PolicyRows.IN_WORDS; i++) {
      assertEquals(0, rows[i], "row 0 untouched");
      assertEquals(expected[i], rows[PolicyRows.IN_WORDS + i], "word " + i);
    }
  }

  @Test
  void aFirstLevelAndAForcedTopologyAreOrdinalsOrMinusOne() {
    long[] rows = new long[PolicyRows.IN_WORDS];
    PolicyRows.put(rows, 0, 1, 0, 0, 1, 0, new FrontierCalibration(0, 0, 0), EnumSet.noneOf(MegakernelExecutionTopology.class),
        Optional.of(MegakernelExecutionTopology.DenseFrontier), 1, 0, null);
    assertEquals(3, rows[9]);
    assertEquals(-1, rows[12]);
  }

  @Test
  void anAnswerIsTheTopologyOrdinalAndTheThreeMetrics() {
    long[] answers = {5, 1, 2, 3, 2, 9000, -1L, 4_294_967_295L};
    assertEquals(new MegakernelTopologyDecision(MegakernelExecutionTopology.BlockDenseFrontier, 9000, -1L, 4_294_967_295L),
        PolicyRows.decision(answers, 1));
  }
}
