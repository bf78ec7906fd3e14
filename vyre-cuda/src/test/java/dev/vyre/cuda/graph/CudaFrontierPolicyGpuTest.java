package dev.vyre.cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import dev.vyre.graph.frontier.FrontierCalibration;
import dev.vyre.graph.frontier.FrontierPolicy;
import dev.vyre.graph.frontier.FrontierResidency;
import dev.vyre.runtime.spi.Availability;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The kernel's port of the decision (FrontierPolicy.decide over the seed selector) gives the Java
 * classes' answers, topology and all three metrics, on random questions, on questions placed exactly
 * on every threshold and hysteresis band and one step either side, on non-finite costs, on empty
 * graphs and frontiers, after every previous topology, and with forced topologies.
 */
@Tag("gpu")
class CudaFrontierPolicyGpuTest {

  private static final MegakernelExecutionTopology[] TOPOLOGIES = MegakernelExecutionTopology.values();
  private static final double[] DENSITIES = {0.03125, 0.125, 0.70, 0.85, 0.03125 + 0.025, 0.125 + 0.025,
      0.125 - 0.025, 0.70 + 0.025, 0.70 - 0.025, 0.85 - 0.025};
  private static final double[] ODD_COSTS = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0, -0.0,
      -1.0, Double.MIN_VALUE, Double.MAX_VALUE, 1e-300};

  private static CudaFrontierEngine engine;

  /** One question: a policy's inputs and decide's arguments. */
  private record Question(int vertices, long edges, long required, long budget, long readback,
      FrontierCalibration calibration, Set<MegakernelExecutionTopology> fitting,
      Optional<MegakernelExecutionTopology> forced, long frontierVertices, long frontierEdges,
      MegakernelExecutionTopology previous) {

    MegakernelTopologyDecision java() {
      FrontierResidency residency = new FrontierResidency(FrontierResidency.Placement.RESIDENT, null, fitting, required,
          budget, 0);
      return new FrontierPolicy(vertices, edges, residency, readback, calibration, forced)
          .decide(frontierVertices, frontierEdges, previous);
    }
  }

  @BeforeAll
  static void open() {
    Availability availability = new CudaFrontierBackend().availability();
    assumeTrue(availability.usable(), () -> "no usable CUDA device, GPU test skipped: " + availability.detail());
    engine = (CudaFrontierEngine) new CudaFrontierBackend().open();
  }

  @AfterAll
  static void close() {
    if (engine != null) {
      engine.close();
    }
  }

  private static void assertDeviceAgrees(List<Question> questions) {
    long[] rows = new long[questions.size() * PolicyRows.IN_WORDS];
    for (int i = 0; i < questions.size(); i++) {
      Question q = questions.get(i);
      PolicyRows.put(rows, i, q.vertices(), q.edges(), q.required(), q.budget(), q.readback(), q.calibration(),
          q.fitting(), q.forced(), q.frontierVertices(), q.frontierEdges(), q.previous());
    }
    long[] answers = engine.decideOnDevice(rows);
    List<String> mismatches = new ArrayList<>();
    for (int i = 0; i < questions.size(); i++) {
      MegakernelTopologyDecision expected = questions.get(i).java();
      MegakernelTopologyDecision device = PolicyRows.decision(answers, i);
      if (!expected.equals(device) && mismatches.size() < 20) {
        mismatches.add(questions.get(i) + ": java " + expected + ", device " + device);
      }
    }
    assertEquals(List.of(), mismatches, questions.size() + " questions");
  }

  private static Set<MegakernelExecutionTopology> all() {
    return EnumSet.allOf(MegakernelExecutionTopology.class);
  }

  @Test
  void randomQuestions() {
    SplittableRandom random = new SplittableRandom(22);
    List<Question> questions = new ArrayList<>();
    for (int i = 0; i < 200_000; i++) {
      int vertices = switch (random.nextInt(4)) {
        case 0 -> random.nextInt(4);
        case 1 -> random.nextInt(1 << 12);
        case 2 -> random.nextInt(1 << 24);
        default -> random.nextInt(Integer.MAX_VALUE);
      };
      long edges = random.nextInt(8) == 0 ? random.nextLong() : (long) (vertices * (random.nextDouble() * 40));
      long budget = random.nextInt(8) == 0 ? random.nextLong() : 1 + random.nextLong(1L << 40);
      long required = random.nextInt(8) == 0 ? random.nextLong() : (long) (budget * random.nextDouble() * 1.1);
      long readback = random.nextInt(3) == 0 ? random.nextLong(8192) : random.nextLong();
      double barrier = random.nextInt(10) == 0 ? ODD_COSTS[random.nextInt(ODD_COSTS.length)] : random.nextDouble() * 5000;
      double edge = random.nextInt(10) == 0 ? ODD_COSTS[random.nextInt(ODD_COSTS.length)] : random.nextDouble() * 0.1;
      double fusedEdge = random.nextInt(10) == 0 ? ODD_COSTS[random.nextInt(ODD_COSTS.length)] : random.nextDouble();
      Set<MegakernelExecutionTopology> fitting = EnumSet.noneOf(MegakernelExecutionTopology.class);
      for (MegakernelExecutionTopology t : TOPOLOGIES) {
        if (random.nextInt(5) != 0) {
          fitting.add(t);
        }
      }
      Optional<MegakernelExecutionTopology> forced = random.nextInt(10) == 0
          ? Optional.of(TOPOLOGIES[random.nextInt(TOPOLOGIES.length)]) : Optional.empty();
      long frontierVertices = random.nextInt(10) == 0 ? random.nextLong() : (long) (vertices * random.nextDouble());
      long frontierEdges = random.nextInt(10) == 0 ? random.nextLong() : random.nextLong(1L << 34);
      MegakernelExecutionTopology previous = random.nextInt(7) == 0 ? null : TOPOLOGIES[random.nextInt(TOPOLOGIES.length)];
      questions.add(new Question(vertices, edges, required, budget, readback,
          new FrontierCalibration(barrier, edge, fusedEdge), fitting, forced, frontierVertices, frontierEdges, previous));
    }
    assertDeviceAgrees(questions);
  }

  /** Densities exactly on each threshold and band edge (fv / n equal to the double), and one vertex either side. */
  @Test
  void densitiesOnEveryThresholdAndBandEdge() {
    List<Question> questions = new ArrayList<>();
    for (double density : DENSITIES) {
      for (int n = 1; n <= 200_000; n++) {
        long fv = Math.round(density * n);
        if ((double) fv / n != density) {
          continue;
        }
        for (long delta = -1; delta <= 1; delta++) {
          for (long edges : new long[] {2L * n - 1, 2L * n, 8L * n, 8L * n + 1, 30L * n}) {
            for (MegakernelExecutionTopology previous : withNull()) {
              questions.add(new Question(n, edges, 1, 1000, 1 << 20, new FrontierCalibration(1000, 1.0, 1.0), all(),
                  Optional.empty(), fv + delta, 1_000_000, previous));
            }
          }
        }
        if (questions.size() > 20_000) {
          break;
        }
      }
    }
    assertDeviceAgrees(questions);
  }

  /** Memory pressure on 8500, 8750 and 9000 bps and one byte either side; readback on 4096 and either side. */
  @Test
  void memoryAndReadbackOnTheirThresholds() {
    List<Question> questions = new ArrayList<>();
    long budget = 1_000_000;
    for (long bps : new long[] {8500, 8750, 9000, 10_000}) {
      for (long delta = -1; delta <= 1; delta++) {
        long required = bps * budget / 10_000 + delta;
        for (long readback : new long[] {4095, 4096, 4097}) {
          for (MegakernelExecutionTopology previous : withNull()) {
            for (double fusionCost : new double[] {0.0, 100.0, 1e6}) {
              questions.add(new Question(4096, 40_000, required, budget, readback,
                  new FrontierCalibration(1000, fusionCost / 500, fusionCost / 500), all(), Optional.empty(), 64, 500,
                  previous));
            }
          }
        }
      }
    }
    assertDeviceAgrees(questions);
  }

  /**
   * Launch pressure (barrier / dispatch cost) around 1500 and 1250 bps, including the halves it
   * rounds away from zero, with fusing free and with one worker as fast as all; fusion pressure (the
   * share of the dispatch cost that fusing saves) exactly on 0.70 and 0.60 and ulps either side.
   */
  @Test
  void fusionAndLaunchPressureOnTheirThresholds() {
    List<Question> questions = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(5);
    double barrier = 1000;
    for (double pressure : new double[] {0.70, 0.60, 0.15, 0.125, 0.14995, 0.12495, 0.15005, 0.12505}) {
      double work = barrier / pressure - barrier;
      for (int step = -3; step <= 3; step++) {
        double edge = Math.nextUp(work / 1000) + step * Math.ulp(work / 1000);
        for (double fusedEdge : new double[] {0.0, edge}) {
          aroundAThousandEdges(questions, random, new FrontierCalibration(barrier, edge, fusedEdge));
        }
      }
    }
    // A thousand edges at 1 ns: dispatch cost 2000 ns, launch pressure 5000 bps; fused edge f saves 1 - f / 2.
    Set<Double> saved = new HashSet<>();
    for (double pressure : new double[] {0.70, 0.60}) {
      double fusedEdge = 2 * (1 - pressure);
      for (int step = -64; step <= 64; step++) {
        double f = fusedEdge + step * Math.ulp(fusedEdge);
        saved.add(Math.max(0.0, (barrier + 1000 * 1.0) - 1000 * f) / (barrier + 1000 * 1.0));
        aroundAThousandEdges(questions, random, new FrontierCalibration(barrier, 1.0, f));
      }
    }
    for (double threshold : new double[] {0.70, 0.70 - 0.10}) {
      assertTrue(saved.containsAll(List.of(Math.nextDown(threshold), threshold, Math.nextUp(threshold))),
          () -> "fusion pressure " + threshold + " and its neighbours are asked");
    }
    assertDeviceAgrees(questions);
  }

  /** Questions of 999, 1000 and 1001 frontier edges after every previous topology (and none). */
  private static void aroundAThousandEdges(List<Question> questions, SplittableRandom random,
      FrontierCalibration calibration) {
    for (long frontierEdges : new long[] {1000, 999, 1001}) {
      for (MegakernelExecutionTopology previous : withNull()) {
        questions.add(new Question(1 << 20, 1 << 22, 1, 1 << 30, 1 << 20, calibration, all(), Optional.empty(),
            random.nextLong(1 << 20), frontierEdges, previous));
      }
    }
  }

  @Test
  void nonFiniteCostsEmptyGraphsAndForcedTopologies() {
    List<Question> questions = new ArrayList<>();
    for (double barrier : ODD_COSTS) {
      for (double edge : ODD_COSTS) {
        for (double fusedEdge : ODD_COSTS) {
          FrontierCalibration calibration = new FrontierCalibration(barrier, edge, fusedEdge);
          for (int vertices : new int[] {0, 1, 1000}) {
            for (long edges : new long[] {0, 1, 8000, Long.MAX_VALUE, -1}) {
              for (MegakernelExecutionTopology previous : withNull()) {
                questions.add(new Question(vertices, edges, 0, 0, 0, calibration, all(), Optional.empty(), vertices,
                    edges, previous));
                // Room to fuse: only the costs decide.
                questions.add(new Question(vertices, edges, 0, 1 << 30, 1 << 20, calibration, all(), Optional.empty(),
                    vertices, edges, previous));
                questions.add(new Question(vertices, edges, 5, 0, 8192, calibration,
                    EnumSet.of(MegakernelExecutionTopology.HybridFrontier),
                    Optional.of(MegakernelExecutionTopology.FusedWave), 0, 0, previous));
              }
            }
          }
        }
      }
    }
    assertDeviceAgrees(questions);
  }

  private static List<MegakernelExecutionTopology> withNull() {
    List<MegakernelExecutionTopology> previous = new ArrayList<>(List.of(TOPOLOGIES));
    previous.add(null);
    return previous;
  }
}
