package dev.vyre.graph.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelMemoryException;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.GraphGenerators;
import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierCalibration;
import dev.vyre.graph.frontier.FrontierLevel;
import dev.vyre.graph.frontier.FrontierOptions;
import dev.vyre.graph.frontier.FrontierPolicy;
import dev.vyre.graph.frontier.FrontierResidency;
import dev.vyre.graph.frontier.FrontierRun;
import dev.vyre.graph.frontier.SerialBfs;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Each level's decision, the calibration behind it, and the memory plan. */
class ReferencePolicyTest {

  @Test
  void theLevelLogIsWhatThePolicyDecidesForTheLoggedFrontiers() {
    try (CsrGraph kronecker = GraphGenerators.kronecker(10, 8, 5); CsrGraph grid = GraphGenerators.grid(30, 30);
        CsrGraph directed = Oracles.directed(kronecker); ReferenceFrontierEngine engine = new ReferenceFrontierEngine(2)) {
      for (CsrGraph graph : List.of(kronecker, grid, directed)) {
        FrontierRun bfs = engine.bfs(graph, 0, FrontierOptions.defaults());
        assertReplays(bfs, graph.vertexCount(), graph.edgeCount());
        FrontierRun components = engine.labelPropagation(graph, FrontierOptions.defaults());
        assertReplays(components, graph.vertexCount(), graph.symmetrized().edgeCount());
      }
    }
  }

  @Test
  void aBarrierThatDominatesFusesTheLevelsOfALongPath() {
    try (CsrGraph grid = GraphGenerators.grid(48, 48)) {
      int n = grid.vertexCount();
      FrontierResidency residency = FrontierResidency.plan(FrontierAlgorithm.BFS, n, grid.edgeCount(), false,
          1L << 30);
      long readback = residency.plan().outputBytes();
      long[][] frontiers = frontiers(grid, SerialBfs.depths(grid, 0));
      // An edge costs nothing beside the barrier, on one worker as on all: every level is overhead,
      // so every level fuses.
      FrontierPolicy overhead = new FrontierPolicy(n, grid.edgeCount(), residency, readback,
          new FrontierCalibration(50_000, 0.001, 0.001), Optional.empty());
      assertEquals(Set.of(MegakernelExecutionTopology.FusedWave), decisions(overhead, frontiers));
      // A barrier worth a hundred edges and one worker at half the rate of all: the small levels at
      // either end fuse, the wide middle does not.
      FrontierPolicy balanced = new FrontierPolicy(n, grid.edgeCount(), residency, readback,
          new FrontierCalibration(100, 1, 2), Optional.empty());
      Set<MegakernelExecutionTopology> mixed = decisions(balanced, frontiers);
      assertTrue(mixed.contains(MegakernelExecutionTopology.FusedWave), mixed::toString);
      assertTrue(mixed.size() > 1, mixed::toString);
      // The same barrier, but one worker so slow that running any level alone costs more than the
      // barrier saves: nothing fuses.
      FrontierPolicy slowAlone = new FrontierPolicy(n, grid.edgeCount(), residency, readback,
          new FrontierCalibration(100, 1, 1000), Optional.empty());
      assertFalse(decisions(slowAlone, frontiers).contains(MegakernelExecutionTopology.FusedWave));
      // A free barrier never fuses, however fast one worker is: there is no launch pressure.
      FrontierPolicy free = new FrontierPolicy(n, grid.edgeCount(), residency, readback,
          new FrontierCalibration(0, 1, 0.001), Optional.empty());
      assertFalse(decisions(free, frontiers).contains(MegakernelExecutionTopology.FusedWave));
    }
  }

  @Test
  void theEngineFusesAndUnfusesAsThePinnedCalibrationSays() {
    try (CsrGraph grid = GraphGenerators.grid(48, 48);
        ReferenceFrontierEngine engine = new ReferenceFrontierEngine(4, new FrontierCalibration(100, 1, 2))) {
      FrontierRun bfs = engine.bfs(grid, 0, FrontierOptions.defaults());
      Oracles.checkBfs(grid, 0, bfs);
      assertEquals(new FrontierCalibration(100, 1, 2), bfs.calibration().orElseThrow());
      List<MegakernelExecutionTopology> topologies = bfs.levels().stream().map(l -> l.decision().topology()).toList();
      assertEquals(MegakernelExecutionTopology.FusedWave, topologies.getFirst());
      assertTrue(topologies.stream().anyMatch(t -> t != MegakernelExecutionTopology.FusedWave), topologies::toString);
      assertReplays(bfs, grid.vertexCount(), grid.edgeCount());
      FrontierRun components = engine.labelPropagation(grid, FrontierOptions.defaults());
      assertArrayEquals(Oracles.components(grid), components.values());
      assertReplays(components, grid.vertexCount(), grid.edgeCount());
    }
  }

  @Test
  void everyRunMeasuresItsCalibration() {
    try (CsrGraph graph = GraphGenerators.uniform(4000, 8, 1); ReferenceFrontierEngine engine = new ReferenceFrontierEngine(2)) {
      FrontierCalibration calibration = engine.bfs(graph, 0, FrontierOptions.defaults()).calibration().orElseThrow();
      assertTrue(calibration.barrierNanos() > 0, calibration::toString);
      assertTrue(calibration.edgeNanos() >= 0, calibration::toString);
      assertTrue(Double.isFinite(calibration.edgeNanos()), calibration::toString);
      assertTrue(calibration.fusedEdgeNanos() >= 0, calibration::toString);
      assertTrue(Double.isFinite(calibration.fusedEdgeNanos()), calibration::toString);
    }
  }

  @Test
  void aBudgetTooSmallForTheGraphLeavesItInHostMemory() {
    try (CsrGraph graph = GraphGenerators.kronecker(9, 8, 2); ReferenceFrontierEngine engine = new ReferenceFrontierEngine(2)) {
      long resident = FrontierResidency.plan(FrontierAlgorithm.BFS, graph.vertexCount(), graph.edgeCount(), false,
          Long.MAX_VALUE).requiredBytes();
      FrontierRun run = engine.bfs(graph, 0, FrontierOptions.defaults().withMemoryBudget(resident - 1));
      assertEquals(FrontierResidency.Placement.HOST_MAPPED, run.residency().placement());
      Oracles.checkBfs(graph, 0, run);
      FrontierRun roomy = engine.bfs(graph, 0, FrontierOptions.defaults().withMemoryBudget(resident));
      assertEquals(FrontierResidency.Placement.RESIDENT, roomy.residency().placement());
      FrontierRun byDefault = engine.bfs(graph, 0, FrontierOptions.defaults());
      assertEquals(FrontierResidency.Placement.RESIDENT, byDefault.residency().placement());
    }
  }

  @Test
  void aBudgetTooSmallForAnythingIsThePlannersOverBudgetError() {
    try (CsrGraph graph = GraphGenerators.grid(10, 10); ReferenceFrontierEngine engine = new ReferenceFrontierEngine(2)) {
      FrontierOptions tiny = FrontierOptions.defaults().withMemoryBudget(64);
      MegakernelMemoryException bfs = assertThrows(MegakernelMemoryException.class, () -> engine.bfs(graph, 0, tiny));
      assertTrue(bfs.isOverBudget());
      assertTrue(bfs.getMessage().contains("Fix: "), bfs.getMessage());
      MegakernelMemoryException components = assertThrows(MegakernelMemoryException.class,
          () -> engine.labelPropagation(graph, tiny));
      assertTrue(components.isOverBudget());
      Oracles.checkBfs(graph, 0, engine.bfs(graph, 0, FrontierOptions.defaults()));
    }
  }

  @Test
  void aBudgetInTheRedZoneRunsEveryLevelSparse() {
    try (CsrGraph graph = GraphGenerators.kronecker(10, 8, 6); ReferenceFrontierEngine engine = new ReferenceFrontierEngine(2)) {
      long exact = FrontierResidency.plan(FrontierAlgorithm.BFS, graph.vertexCount(), graph.edgeCount(), false,
          Long.MAX_VALUE).requiredBytes();
      FrontierRun run = engine.bfs(graph, 0, FrontierOptions.defaults().withMemoryBudget(exact));
      Oracles.checkBfs(graph, 0, run);
      assertTrue(run.residency().memoryPressureBps() >= 9_000);
      for (FrontierLevel level : run.levels()) {
        assertEquals(MegakernelExecutionTopology.SparseFrontier, level.decision().topology());
        assertEquals("memory_pressure_sparse_safety", level.decision().reasonCode());
      }
    }
  }

  /**
   * Replays the policy over the run's logged frontiers, its costs refined by each logged level as the
   * engine refines them; the decisions must be the logged ones.
   */
  private static void assertReplays(FrontierRun run, int vertices, long edges) {
    FrontierCalibration costs = run.calibration().orElseThrow();
    MegakernelExecutionTopology previous = null;
    for (FrontierLevel level : run.levels()) {
      FrontierPolicy policy = new FrontierPolicy(vertices, edges, run.residency(), run.residency().plan().outputBytes(),
          costs, Optional.empty());
      MegakernelTopologyDecision expected = policy.decide(level.frontierVertices(), level.frontierEdges(), previous);
      assertEquals(expected, level.decision(), "level " + level.level());
      assertTrue(level.nanos() >= 0);
      previous = level.decision().topology();
      costs = costs.refinedBy(previous, level.frontierEdges(), level.nanos());
    }
  }

  /** Each level's frontier vertices and edges from a BFS's depths. */
  private static long[][] frontiers(CsrGraph graph, int[] depths) {
    int levels = 0;
    for (int d : depths) {
      levels = Math.max(levels, d + 1);
    }
    long[][] frontiers = new long[levels][2];
    for (int v = 0; v < depths.length; v++) {
      if (depths[v] >= 0) {
        frontiers[depths[v]][0]++;
        frontiers[depths[v]][1] += graph.degree(v);
      }
    }
    return frontiers;
  }

  private static Set<MegakernelExecutionTopology> decisions(FrontierPolicy policy, long[][] frontiers) {
    MegakernelExecutionTopology previous = null;
    List<MegakernelExecutionTopology> all = new java.util.ArrayList<>();
    for (long[] frontier : frontiers) {
      previous = policy.decide(frontier[0], frontier[1], previous).topology();
      all.add(previous);
    }
    return all.stream().collect(Collectors.toSet());
  }
}
