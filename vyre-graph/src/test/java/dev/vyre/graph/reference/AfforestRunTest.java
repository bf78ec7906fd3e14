package dev.vyre.graph.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.EdgeList;
import dev.vyre.graph.GraphGenerators;
import dev.vyre.graph.frontier.Afforest;
import dev.vyre.graph.frontier.AfforestPhase;
import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierOptions;
import dev.vyre.graph.frontier.FrontierRun;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Afforest on the reference engine: labels against union-find, and what each phase did. */
class AfforestRunTest {

  private static final int[] WORKERS = {1, 2, 4};

  /** Runs Afforest on {@code graph} with 1, 2 and 4 workers; each run's labels must be union-find's. */
  private static FrontierRun checked(CsrGraph graph) {
    int[] expected = Oracles.components(graph);
    FrontierRun last = null;
    for (int workers : WORKERS) {
      try (ReferenceFrontierEngine engine = new ReferenceFrontierEngine(workers)) {
        last = engine.afforest(graph, FrontierOptions.defaults());
        assertArrayEquals(expected, last.values(), graph + ", " + workers + " workers");
        assertEquals(FrontierAlgorithm.AFFOREST, last.algorithm());
        assertEquals(List.of(), last.levels());
        assertEquals(0, last.parents().length);
        assertTrue(last.calibration().isEmpty());
        assertEquals(Afforest.PLAN, last.phases().stream().map(p -> new Afforest.Planned(p.step(), p.round())).toList());
      }
    }
    return last;
  }

  private static AfforestPhase phase(FrontierRun run, AfforestPhase.Step step) {
    return run.phases().stream().filter(p -> p.step() == step).findFirst().orElseThrow();
  }

  private static CsrGraph graph(int n, int[][] edges, boolean undirected) {
    try (EdgeList list = EdgeList.create()) {
      for (int[] edge : edges) {
        list.add(edge[0], edge[1]);
      }
      return CsrGraph.build(list, n, undirected);
    }
  }

  /** Random graphs of many components: a few random edges among many vertices, or none at all. */
  @Property(tries = 60)
  void randomGraphsOfManyComponentsMatchUnionFind(@ForAll @IntRange(min = 1, max = 3000) int n,
      @ForAll @IntRange(min = 0, max = 150) int edgesPerHundred, @ForAll long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    try (EdgeList edges = EdgeList.create()) {
      for (long e = 0, m = (long) n * edgesPerHundred / 100; e < m; e++) {
        edges.add(random.nextInt(n), random.nextInt(n));
      }
      try (CsrGraph graph = CsrGraph.build(edges, n, random.nextBoolean())) {
        checked(graph);
      }
    }
  }

  @Test
  void theLargestComponentNeedNotHoldVertexZero() {
    // Vertices 0-9 a small path; 10-1999 a star around 700: the sample finds the star, and the path,
    // whose vertices have two neighbours at most, has no edges left to link.
    int n = 2000;
    try (EdgeList edges = EdgeList.create()) {
      for (int v = 0; v < 9; v++) {
        edges.add(v, v + 1);
      }
      for (int v = 10; v < n; v++) {
        if (v != 700) {
          edges.add(700, v);
        }
      }
      try (CsrGraph graph = CsrGraph.build(edges, n, true)) {
        FrontierRun run = checked(graph);
        assertEquals(0, run.values()[9]);
        assertEquals(10, run.values()[1999]);
        assertEquals(2, run.componentCount());
        assertTrue(phase(run, AfforestPhase.Step.SAMPLE).vertices() > Afforest.SAMPLES * 9 / 10,
            "the star holds most samples: " + run.phases());
        AfforestPhase rest = phase(run, AfforestPhase.Step.LINK_REST);
        assertEquals(0, rest.vertices(), run.phases().toString());
        assertEquals(0, rest.edges());
      }
    }
  }

  @Test
  void onlyTheVerticesOutsideTheLargestComponentLinkTheirRemainingEdges() {
    // A complete graph on 0-5 (each vertex 5 neighbours, 3 past the sampled two) beside a star of
    // 1,000 leaves around 500: the star holds the samples, the clique links 6 x 3 edges.
    int n = 1506;
    try (EdgeList edges = EdgeList.create()) {
      for (int u = 0; u < 6; u++) {
        for (int v = u + 1; v < 6; v++) {
          edges.add(u, v);
        }
      }
      for (int v = 6; v < n; v++) {
        if (v != 500) {
          edges.add(500, v);
        }
      }
      try (CsrGraph graph = CsrGraph.build(edges, n, true)) {
        FrontierRun run = checked(graph);
        assertEquals(2, run.componentCount());
        AfforestPhase rest = phase(run, AfforestPhase.Step.LINK_REST);
        assertEquals(6, rest.vertices(), run.phases().toString());
        assertEquals(6 * 3, rest.edges());
        AfforestPhase first = run.phases().get(1);
        assertEquals(new AfforestPhase(AfforestPhase.Step.LINK_NEIGHBOUR, 0, n, n, first.nanos()), first);
        assertEquals(n, phase(run, AfforestPhase.Step.FINAL_COMPRESS).vertices());
      }
    }
  }

  @Test
  void isolatedVerticesLabelThemselves() {
    try (CsrGraph graph = graph(500, new int[][] {{3, 4}}, true)) {
      FrontierRun run = checked(graph);
      assertEquals(499, run.componentCount());
      assertEquals(3, run.values()[4]);
      assertEquals(2, phase(run, AfforestPhase.Step.LINK_NEIGHBOUR).vertices());
    }
  }

  @Test
  void aPathInShuffledOrderIsOneComponent() {
    int n = 5000;
    int[] order = new int[n];
    for (int v = 0; v < n; v++) {
      order[v] = v;
    }
    SplittableRandom random = new SplittableRandom(21);
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int swap = order[i];
      order[i] = order[j];
      order[j] = swap;
    }
    int[][] edges = new int[n - 1][];
    for (int i = 0; i + 1 < n; i++) {
      edges[i] = new int[] {order[i], order[i + 1]};
    }
    try (CsrGraph graph = graph(n, edges, true)) {
      FrontierRun run = checked(graph);
      assertEquals(1, run.componentCount());
    }
  }

  @Test
  void aStarAroundALargeIdIsOneComponentLabelledZero() {
    int n = 3000;
    int[][] edges = new int[n - 1][];
    for (int v = 0, i = 0; v < n; v++) {
      if (v != 2345) {
        edges[i++] = new int[] {2345, v};
      }
    }
    try (CsrGraph graph = graph(n, edges, true)) {
      FrontierRun run = checked(graph);
      assertEquals(1, run.componentCount());
      assertEquals(0, phase(run, AfforestPhase.Step.LINK_REST).edges(), "the star joins in the first round");
    }
  }

  @Test
  void oneComponentGraphsAndADirectedGraphsWeakComponents() {
    try (CsrGraph grid = GraphGenerators.grid(40, 50); CsrGraph kronecker = GraphGenerators.kronecker(12, 8, 5);
        CsrGraph directed = graph(6, new int[][] {{5, 0}, {1, 0}, {3, 4}}, false)) {
      assertEquals(1, checked(grid).componentCount());
      checked(kronecker);
      assertArrayEquals(new int[] {0, 0, 2, 3, 3, 0}, checked(directed).values());
    }
  }

  @Test
  void aGraphWithoutVerticesRunsEveryPhaseOverNothing() {
    try (CsrGraph graph = graph(0, new int[0][], true)) {
      FrontierRun run = checked(graph);
      assertEquals(0, run.values().length);
      assertTrue(run.phases().stream().allMatch(p -> p.vertices() == 0 && p.edges() == 0), run.phases().toString());
    }
  }

  @Test
  void aForcedTopologyOrPerLevelLaunchIsAnInputErrorWithAFix() {
    try (ReferenceFrontierEngine engine = new ReferenceFrontierEngine(2); CsrGraph graph = GraphGenerators.grid(3, 3)) {
      for (FrontierOptions options : List.of(FrontierOptions.defaults().forcing(MegakernelExecutionTopology.DenseFrontier),
          FrontierOptions.defaults().launchingPerLevel())) {
        InputException e = assertThrows(InputException.class, () -> engine.afforest(graph, options));
        assertTrue(e.getMessage().contains("Afforest has phases, not levels") && e.getMessage().contains(". Fix: "),
            e.getMessage());
      }
    }
  }
}
