package dev.vyre.graph.frontier;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.EdgeList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a run reports: Graph500's traversed edges, GTEPS, the component count and the topology mix. */
class FrontierRunTest {

  private static final FrontierResidency RESIDENCY = FrontierResidency.plan(FrontierAlgorithm.BFS, 4, 8, false, 1L << 30);
  private static final FrontierCalibration CALIBRATION = new FrontierCalibration(1, 1, 1);

  private static FrontierRun run(FrontierAlgorithm algorithm, int[] values, MegakernelExecutionTopology... topologies) {
    List<FrontierLevel> levels = new ArrayList<>();
    for (MegakernelExecutionTopology topology : topologies) {
      levels.add(new FrontierLevel(levels.size(), 1, 1, new MegakernelTopologyDecision(topology, 0, 0, 0), 1));
    }
    return new FrontierRun(algorithm, "test", values, new int[0], levels, List.of(), 10, RESIDENCY,
        Optional.of(CALIBRATION));
  }

  @Test
  void traversedEdgesCountTheReachedPartsInputEdgesOnce() {
    try (EdgeList edges = EdgeList.create()) {
      edges.add(0, 1);
      edges.add(1, 2);
      edges.add(3, 4);
      try (CsrGraph undirected = CsrGraph.build(edges, 5, true); CsrGraph directed = CsrGraph.build(edges, 5, false)) {
        int[] depths = {0, 1, 2, -1, -1};
        assertEquals(3, undirected.inputEdgeCount());
        assertEquals(2, run(FrontierAlgorithm.BFS, depths).traversedEdges(undirected));
        assertEquals(2, FrontierRun.traversedEdges(directed, depths));
        assertEquals(0.2, FrontierRun.gteps(2, 10));
        assertEquals(2.0, FrontierRun.gteps(2, 0), "a run of 0 ns counts as 1");
      }
    }
  }

  @Test
  void componentsAreTheVerticesThatLabelThemselves() {
    assertEquals(2, run(FrontierAlgorithm.LABEL_PROPAGATION, new int[] {0, 0, 2, 2, 0}).componentCount());
  }

  @Test
  void theTopologyMixCountsLevelsInTheTopologiesOrder() {
    FrontierRun run = run(FrontierAlgorithm.BFS, new int[] {0}, MegakernelExecutionTopology.HybridFrontier,
        MegakernelExecutionTopology.SparseFrontier, MegakernelExecutionTopology.HybridFrontier);
    assertEquals(Map.of(MegakernelExecutionTopology.SparseFrontier, 1L, MegakernelExecutionTopology.HybridFrontier, 2L),
        run.topologyMix());
    assertEquals(List.of(MegakernelExecutionTopology.SparseFrontier, MegakernelExecutionTopology.HybridFrontier),
        List.copyOf(run.topologyMix().keySet()));
    assertEquals(Set.of(), run(FrontierAlgorithm.BFS, new int[] {0}).topologyMix().keySet());
  }
}
