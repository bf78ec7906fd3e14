package dev.vyre.graph.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.EdgeList;
import dev.vyre.graph.GraphGenerators;
import dev.vyre.graph.frontier.FrontierOptions;
import dev.vyre.graph.frontier.FrontierRun;
import dev.vyre.graph.frontier.LevelBreakdown;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The engine's answers on every topology, forced or decided, and Afforest's, with 1, 2 and 4 workers, against the
 * oracles.
 */
class ReferenceFrontierEngineTest {

  private static final int[] WORKERS = {1, 2, 4};

  /**
   * A random graph: uniform arcs, or a path with a few random arcs (many levels); either among all
   * vertices or among the first few only, the rest isolated (frontiers far smaller than the bitmap).
   */
  record Shape(int n, int arcsPerVertex, long seed, boolean directed, boolean path, boolean core) {
    CsrGraph build() {
      SplittableRandom random = new SplittableRandom(seed);
      int used = core ? Math.max(1, n / 40) : n;
      try (EdgeList edges = EdgeList.create()) {
        if (path) {
          for (int v = 0; v + 1 < used; v++) {
            edges.add(v, v + 1);
          }
        }
        long arcs = path ? used / 8 : (long) used * arcsPerVertex;
        for (long e = 0; e < arcs; e++) {
          edges.add(random.nextInt(used), random.nextInt(used));
        }
        return CsrGraph.build(edges, n, !directed);
      }
    }
  }

  @Provide
  Arbitrary<Shape> shapes() {
    return Combinators.combine(Arbitraries.integers().between(1, 2000), Arbitraries.integers().between(0, 4),
        Arbitraries.longs(), Arbitraries.of(true, false), Arbitraries.of(true, false), Arbitraries.of(true, false))
        .as(Shape::new);
  }

  @Provide
  Arbitrary<Optional<MegakernelExecutionTopology>> topologies() {
    return Arbitraries.of(MegakernelExecutionTopology.class).optional(0.3);
  }

  @Provide
  Arbitrary<Integer> workers() {
    return Arbitraries.of(1, 2, 4);
  }

  @Property(tries = 150)
  void randomGraphsMatchTheOracles(@ForAll("shapes") Shape shape,
      @ForAll("topologies") Optional<MegakernelExecutionTopology> topology, @ForAll("workers") int workers) {
    FrontierOptions options = options(topology);
    try (CsrGraph graph = shape.build(); ReferenceFrontierEngine engine = new ReferenceFrontierEngine(workers)) {
      int source = Math.floorMod(shape.seed(), shape.n());
      Oracles.checkBfs(graph, source, engine.bfs(graph, source, options));
      int[] labels = Oracles.components(graph);
      assertArrayEquals(labels, engine.labelPropagation(graph, options).values(), "labels");
      assertArrayEquals(labels, engine.afforest(graph, FrontierOptions.defaults()).values(), "Afforest's labels");
    }
  }

  @Test
  void generatedGraphsMatchTheOraclesOnEveryTopologyAndWorkerCount() {
    List<CsrGraph> graphs = new ArrayList<>();
    graphs.add(GraphGenerators.kronecker(9, 8, 3));
    graphs.add(GraphGenerators.grid(24, 40));
    graphs.add(GraphGenerators.uniform(1500, 5, 4));
    for (CsrGraph g : List.copyOf(graphs)) {
      graphs.add(Oracles.directed(g));
    }
    List<Optional<MegakernelExecutionTopology>> topologies = new ArrayList<>();
    topologies.add(Optional.empty());
    for (MegakernelExecutionTopology t : MegakernelExecutionTopology.values()) {
      topologies.add(Optional.of(t));
    }
    try {
      for (int workers : WORKERS) {
        try (ReferenceFrontierEngine engine = new ReferenceFrontierEngine(workers)) {
          for (CsrGraph graph : graphs) {
            int[] labels = Oracles.components(graph);
            assertArrayEquals(labels, engine.afforest(graph, FrontierOptions.defaults()).values(),
                graph + " Afforest, " + workers + " workers");
            for (Optional<MegakernelExecutionTopology> topology : topologies) {
              FrontierOptions options = options(topology);
              Oracles.checkBfs(graph, 1, engine.bfs(graph, 1, options));
              FrontierRun components = engine.labelPropagation(graph, options);
              assertArrayEquals(labels, components.values(), graph + " " + topology + " " + workers + " workers");
              assertEquals(graph.vertexCount(), components.levels().getFirst().frontierVertices());
              assertEquals(graph.symmetrized().edgeCount(), components.levels().getFirst().frontierEdges());
            }
          }
        }
      }
    } finally {
      graphs.forEach(CsrGraph::close);
    }
  }

  @Test
  void anEngineRunsManyTraversalsInTurn() {
    try (CsrGraph graph = GraphGenerators.kronecker(8, 4, 9); ReferenceFrontierEngine engine = new ReferenceFrontierEngine(3)) {
      for (int source = 0; source < 40; source++) {
        Oracles.checkBfs(graph, source, engine.bfs(graph, source, FrontierOptions.defaults()));
      }
    }
  }

  @Test
  void aGraphWithoutVerticesHasNoComponentsAndNoLevels() {
    try (EdgeList edges = EdgeList.create(); CsrGraph graph = CsrGraph.build(edges, 0, true);
        ReferenceFrontierEngine engine = new ReferenceFrontierEngine(2)) {
      FrontierRun run = engine.labelPropagation(graph, FrontierOptions.defaults());
      assertEquals(0, run.values().length);
      assertEquals(List.of(), run.levels());
      assertEquals("reference", run.backend());
    }
  }

  @Test
  void aRunSaysWhereItsGridWideLevelsSpentTheirTime() {
    try (CsrGraph graph = GraphGenerators.grid(40, 40); ReferenceFrontierEngine engine = new ReferenceFrontierEngine(3)) {
      // Forced, so that no level runs fused: every level is grid-wide.
      FrontierRun run = engine.bfs(graph, 0, FrontierOptions.defaults().forcing(MegakernelExecutionTopology.SparseFrontier));
      LevelBreakdown breakdown = run.breakdown().orElseThrow();
      assertEquals(run.levels().size(), breakdown.levels());
      assertEquals(3, breakdown.workers());
      assertTrue(breakdown.workNanos() > 0 && breakdown.waitNanos() >= 0 && breakdown.actionNanos() > 0,
          breakdown.toString());
      // Arrivals are apart by at most a worker's wait; leaving after the release is part of the wait.
      assertTrue(breakdown.skewNanos() <= breakdown.waitNanos(), breakdown.toString());
      assertTrue(breakdown.exitNanos() >= 0 && breakdown.exitNanos() <= breakdown.waitNanos(), breakdown.toString());
      assertTrue(breakdown.describe().startsWith("3 workers, a level: push or pull "), breakdown.describe());
      // Afforest has no levels to break down.
      assertEquals(Optional.empty(), engine.afforest(graph, FrontierOptions.defaults()).breakdown());
    }
  }

  private static FrontierOptions options(Optional<MegakernelExecutionTopology> topology) {
    return topology.map(FrontierOptions.defaults()::forcing).orElse(FrontierOptions.defaults());
  }
}
