package dev.vyre.cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.EdgeList;
import dev.vyre.graph.GraphGenerators;
import dev.vyre.graph.frontier.Afforest;
import dev.vyre.graph.frontier.AfforestPhase;
import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierEngine;
import dev.vyre.graph.frontier.FrontierEngines;
import dev.vyre.graph.frontier.FrontierLevel;
import dev.vyre.graph.frontier.FrontierOptions;
import dev.vyre.graph.frontier.FrontierPolicy;
import dev.vyre.graph.frontier.FrontierResidency;
import dev.vyre.graph.frontier.FrontierRun;
import dev.vyre.runtime.spi.Availability;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The CUDA frontier engine against serial BFS and union-find, on every topology, both placements and both modes;
 * Afforest against union-find and the reference backend's phase counts.
 */
@Tag("gpu")
class CudaFrontierGpuTest {

  private static FrontierEngine engine;
  private static Map<String, CsrGraph> graphs;

  @BeforeAll
  static void open() {
    Availability availability = new CudaFrontierBackend().availability();
    assumeTrue(availability.usable(), () -> "no usable CUDA device, GPU test skipped: " + availability.detail());
    engine = new CudaFrontierBackend().open();
    graphs = Map.of("kronecker 10/8", GraphGenerators.kronecker(10, 8, 1), "grid 30x40", GraphGenerators.grid(30, 40),
        "uniform 3000/6", GraphGenerators.uniform(3000, 6, 2), "random directed 2000/9",
        GraphOracle.random(2000, 18_000, false, 3), "random directed sparse 1500",
        GraphOracle.random(1500, 1200, false, 4), "random undirected 2500", GraphOracle.random(2500, 2000, true, 5));
  }

  @AfterAll
  static void close() {
    if (engine != null) {
      engine.close();
    }
    if (graphs != null) {
      graphs.values().forEach(CsrGraph::close);
    }
  }

  private static List<FrontierOptions> everyTopologyAndAuto() {
    List<FrontierOptions> options = new ArrayList<>(List.of(FrontierOptions.defaults()));
    for (MegakernelExecutionTopology topology : MegakernelExecutionTopology.values()) {
      options.add(FrontierOptions.defaults().forcing(topology));
    }
    return options;
  }

  private static String name(FrontierOptions options) {
    return options.forcedTopology().map(Enum::name).orElse("auto") + (options.launchPerLevel() ? " per level" : "")
        + (options.memoryBudgetBytes().isPresent() ? " budget " + options.memoryBudgetBytes().getAsLong() : "");
  }

  /** Depths, parents, and the level log's counts, which a BFS fixes exactly. */
  private static void checkBfs(CsrGraph graph, int source, FrontierOptions options, String what) {
    FrontierRun run = engine.bfs(graph, source, options);
    int[] expected = GraphOracle.depths(graph, source);
    assertArrayEquals(expected, run.values(), what + ": depths");
    GraphOracle.assertValidTree(graph, run, source, what);
    assertEquals(FrontierAlgorithm.BFS, run.algorithm());
    int deepest = Arrays.stream(expected).max().orElse(0);
    assertEquals(deepest + 1, run.levels().size(), what + ": levels");
    for (FrontierLevel level : run.levels()) {
      long vertices = 0;
      long edges = 0;
      for (int v = 0; v < graph.vertexCount(); v++) {
        if (expected[v] == level.level()) {
          vertices++;
          edges += graph.degree(v);
        }
      }
      assertEquals(vertices, level.frontierVertices(), what + ": frontier vertices of level " + level.level());
      assertEquals(edges, level.frontierEdges(), what + ": frontier edges of level " + level.level());
      options.forcedTopology().ifPresent(t -> assertEquals(t, level.decision().topology(), what));
    }
    assertTrue(run.nanos() > 0, what + ": nanos");
    if (options.forcedTopology().isEmpty() && !options.launchPerLevel()) {
      assertDecidedAsThePolicy(graph, run, what);
    }
  }

  /**
   * Each level's topology on the device (a decision the kernel tables at its start for small
   * frontiers) is the Java policy's for the level's frontier, the previous level's topology and the
   * calibration the kernel measured.
   */
  private static void assertDecidedAsThePolicy(CsrGraph graph, FrontierRun run, String what) {
    FrontierPolicy policy = new FrontierPolicy(graph.vertexCount(), graph.edgeCount(), run.residency(),
        8L * graph.vertexCount(), run.calibration().orElseThrow(), Optional.empty());
    MegakernelExecutionTopology previous = null;
    for (FrontierLevel level : run.levels()) {
      assertEquals(policy.decide(level.frontierVertices(), level.frontierEdges(), previous).topology(),
          level.decision().topology(), what + ": the decision of level " + level.level());
      previous = level.decision().topology();
    }
  }

  @Test
  void everyTopologyGivesTheSerialDepthsAndAGraph500ValidTree() {
    graphs.forEach((name, graph) -> {
      for (FrontierOptions options : everyTopologyAndAuto()) {
        for (int source : new int[] {0, graph.vertexCount() / 3, graph.vertexCount() - 1}) {
          checkBfs(graph, source, options, name + " from " + source + ", " + name(options));
        }
      }
    });
  }

  @Test
  void everyTopologyGivesEachVertexTheSmallestIdOfItsComponent() {
    graphs.forEach((name, graph) -> {
      int[] expected = GraphOracle.components(graph);
      for (FrontierOptions options : everyTopologyAndAuto()) {
        FrontierRun run = engine.labelPropagation(graph, options);
        assertArrayEquals(expected, run.values(), name + ", " + name(options));
        assertEquals(graph.vertexCount(), run.levels().getFirst().frontierVertices(), name);
        assertEquals(0, run.parents().length);
      }
    });
  }

  /**
   * Stars around 3,000 (5,000 leaves: the largest component), 9,000 (2,000 leaves: a hub outside it,
   * linked by a block) and 12,000 (100 leaves: a warp's vertex outside it), a triangle 0-1-2 with a
   * tail (vertex 2 has a third neighbour), and isolated vertices in between. Linking the rest takes
   * the two outer centres and vertex 2, past their first two neighbours.
   */
  private static CsrGraph starsAndStrays() {
    try (EdgeList edges = EdgeList.create()) {
      for (int leaf = 4000; leaf < 9000; leaf++) {
        edges.add(3000, leaf);
      }
      for (int leaf = 9001; leaf < 11001; leaf++) {
        edges.add(9000, leaf);
      }
      for (int leaf = 12001; leaf < 12101; leaf++) {
        edges.add(12000, leaf);
      }
      edges.add(0, 1);
      edges.add(1, 2);
      edges.add(2, 0);
      edges.add(2, 5);
      return CsrGraph.build(edges, 12_200, true);
    }
  }

  @Test
  void afforestGivesEachVertexTheSmallestIdOfItsComponentAndCountsItsPhasesAsTheReferenceBackend() {
    Map<String, CsrGraph> all = new LinkedHashMap<>(graphs);
    try (CsrGraph stars = starsAndStrays(); CsrGraph kronecker = GraphGenerators.kronecker(14, 16, 3);
        FrontierEngine reference = FrontierEngines.open("reference")) {
      all.put("stars and strays", stars);
      all.put("kronecker 14/16", kronecker);
      all.forEach((name, graph) -> {
        FrontierRun run = engine.afforest(graph, FrontierOptions.defaults());
        assertArrayEquals(GraphOracle.components(graph), run.values(), name);
        assertEquals(FrontierAlgorithm.AFFOREST, run.algorithm());
        assertTrue(run.nanos() > 0, name);
        FrontierRun expected = reference.afforest(graph, FrontierOptions.defaults());
        assertEquals(Afforest.PLAN.size(), run.phases().size(), name);
        for (int i = 0; i < run.phases().size(); i++) {
          AfforestPhase got = run.phases().get(i);
          AfforestPhase want = expected.phases().get(i);
          assertEquals(want.step(), got.step(), name);
          assertEquals(want.round(), got.round(), name);
          // Linking the rest may count the sampled root itself when a link hooks it mid-phase.
          if (want.step() != AfforestPhase.Step.LINK_REST) {
            assertEquals(want.vertices(), got.vertices(), name + " " + want);
            assertEquals(want.edges(), got.edges(), name + " " + want);
          }
        }
      });
      AfforestPhase rest = engine.afforest(stars, FrontierOptions.defaults()).phases().get(6);
      assertEquals(new AfforestPhase(AfforestPhase.Step.LINK_REST, -1, 3, 2000 - 2 + 100 - 2 + 1, rest.nanos()), rest);
    }
  }

  @Test
  void afforestOverTheBudgetReadsTheGraphFromMappedHostMemory() {
    graphs.forEach((name, graph) -> {
      long resident = FrontierResidency.plan(FrontierAlgorithm.AFFOREST, graph.vertexCount(),
          graph.symmetrized().edgeCount(), false, Long.MAX_VALUE).requiredBytes();
      FrontierRun run = engine.afforest(graph, FrontierOptions.defaults().withMemoryBudget(resident - 1));
      assertEquals(FrontierResidency.Placement.HOST_MAPPED, run.residency().placement(), name);
      assertArrayEquals(GraphOracle.components(graph), run.values(), name);
    });
  }

  @Test
  void thePerLevelBaselineGivesTheSameAnswers() {
    graphs.forEach((name, graph) -> {
      for (FrontierOptions options : List.of(FrontierOptions.defaults().launchingPerLevel(),
          FrontierOptions.defaults().forcing(MegakernelExecutionTopology.FusedWave).launchingPerLevel(),
          FrontierOptions.defaults().forcing(MegakernelExecutionTopology.BlockDenseFrontier).launchingPerLevel())) {
        checkBfs(graph, graph.vertexCount() / 2, options, name + ", " + name(options));
        assertArrayEquals(GraphOracle.components(graph), engine.labelPropagation(graph, options).values(), name);
      }
    });
  }

  @Test
  void aGraphOverTheBudgetStaysInMappedHostMemoryWithTheSameAnswers() {
    graphs.forEach((name, graph) -> {
      long resident = FrontierResidency.plan(FrontierAlgorithm.BFS, graph.vertexCount(), graph.edgeCount(),
          !graph.undirected(), Long.MAX_VALUE).requiredBytes();
      for (FrontierOptions options : List.of(FrontierOptions.defaults().withMemoryBudget(resident - 1),
          FrontierOptions.defaults().forcing(MegakernelExecutionTopology.DenseFrontier).withMemoryBudget(resident - 1))) {
        int source = graph.vertexCount() / 2;
        FrontierRun run = engine.bfs(graph, source, options);
        assertEquals(FrontierResidency.Placement.HOST_MAPPED, run.residency().placement(), name);
        checkBfs(graph, source, options, name + ", " + name(options));
      }
      assertEquals(FrontierResidency.Placement.RESIDENT,
          engine.bfs(graph, 0, FrontierOptions.defaults()).residency().placement(), name);
    });
  }

  @Test
  void graph500TreesFromManySourcesOfAKroneckerGraph() {
    try (CsrGraph graph = GraphGenerators.kronecker(13, 16, 7)) {
      SplittableRandom random = new SplittableRandom(9);
      for (int i = 0; i < 16; i++) {
        int source = random.nextInt(graph.vertexCount());
        checkBfs(graph, source, FrontierOptions.defaults(), "kronecker 13/16 from " + source);
      }
    }
  }

  @Test
  void aSecondRunOfAGraphReusesItsMemoryPlan() {
    try (CsrGraph graph = GraphGenerators.grid(17, 19)) {
      FrontierOptions options = FrontierOptions.defaults().withMemoryBudget(1L << 33);
      FrontierRun first = engine.bfs(graph, 0, options);
      long reused = ((CudaFrontierEngine) engine).plansReused();
      FrontierRun second = engine.bfs(graph, 5, options);
      assertEquals(first.residency(), second.residency());
      assertEquals(reused + 1, ((CudaFrontierEngine) engine).plansReused());
    }
  }

  /** A small traversal of each kind, for scripts/gpu-check.sh's compute-sanitizer step. */
  @Test
  void aSmallTraversalOfEachKind() {
    try (CsrGraph graph = GraphOracle.random(700, 2500, false, 11)) {
      checkBfs(graph, 1, FrontierOptions.defaults(), "small directed");
      checkBfs(graph, 1, FrontierOptions.defaults().forcing(MegakernelExecutionTopology.BlockDenseFrontier),
          "small directed block-dense");
      checkBfs(graph, 1, FrontierOptions.defaults().launchingPerLevel(), "small directed per level");
      assertArrayEquals(GraphOracle.components(graph), engine.labelPropagation(graph, FrontierOptions.defaults()).values());
      assertArrayEquals(GraphOracle.components(graph), engine.afforest(graph, FrontierOptions.defaults()).values());
    }
  }

  @Test
  void aSourceOutsideTheGraphIsAnInputError() {
    try (CsrGraph graph = GraphGenerators.grid(2, 2)) {
      InputException error = assertThrows(InputException.class,
          () -> engine.bfs(graph, 4, FrontierOptions.defaults()));
      assertTrue(error.getMessage().contains("Fix:"), error.getMessage());
    }
  }
}
