package dev.vyre.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierCalibration;
import dev.vyre.graph.frontier.FrontierEngine;
import dev.vyre.graph.frontier.FrontierLevel;
import dev.vyre.graph.frontier.FrontierOptions;
import dev.vyre.graph.frontier.FrontierResidency;
import dev.vyre.graph.frontier.FrontierRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.IntUnaryOperator;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** {@link GraphBench} on tiny graphs with a serial stand-in engine: its contenders, fields and checks (no timings). */
class GraphBenchTest {

  private final ByteArrayOutputStream progress = new ByteArrayOutputStream();

  @Test
  void onTheReferenceBackendThePerLevelLaunchAndReferenceRowsSaySkipped() {
    GraphBench.Report report = GraphBench.run(settings(name -> "reference", IntUnaryOperator.identity()), out());
    assertEquals(3, report.graphs().size());
    for (GraphBench.GraphResult graph : report.graphs()) {
      List<String> contenders = graph.bfs().stream().map(GraphBench.BfsResult::contender).toList();
      assertEquals(List.of("engine", "per_level_launch", "reference", "serial"), contenders);
      assertEquals("skipped: per-level launch is CUDA's baseline", graph.bfs().get(1).skipped());
      assertNull(graph.bfs().get(2).measure());
      saneMeasure(graph.bfs().getFirst(), true);
      saneMeasure(graph.bfs().getLast(), false);
      assertEquals(List.of("engine_vs_serial"), List.copyOf(graph.ratios().keySet()));
      assertEquals(List.of("engine afforest", "engine label-propagation"), graph.components().stream()
          .map(cc -> cc.contender() + " " + cc.algorithm()).toList());
      assertEquals(3, graph.sources().size());
      assertEquals(3, new HashSet<>(graph.sources()).size(), "distinct sources");
    }
    GraphBench.GraphResult grid = report.graphs().get(1);
    assertEquals(16, grid.vertices());
    assertEquals(24, grid.edges());
    assertEquals(1, grid.components().getFirst().components());
    assertTrue(progress.toString(StandardCharsets.UTF_8).contains("source 3/3"), progress.toString(StandardCharsets.UTF_8));
  }

  @Test
  void onCudaEveryContenderIsMeasuredOnTheSameSources() {
    GraphBench.Report report = GraphBench.run(settings(name -> name.equals("auto") ? "cuda" : name,
        IntUnaryOperator.identity()), out());
    for (GraphBench.GraphResult graph : report.graphs()) {
      assertEquals(List.of("cuda", "cuda", "reference", "java"), graph.bfs().stream().map(GraphBench.BfsResult::backend)
          .toList());
      graph.bfs().forEach(result -> assertNull(result.skipped()));
      assertEquals(List.of("engine_vs_per_level_launch", "engine_vs_reference", "engine_vs_serial"),
          List.copyOf(graph.ratios().keySet()));
      assertEquals(List.of("engine afforest", "engine label-propagation", "reference afforest"),
          graph.components().stream().map(cc -> cc.contender() + " " + cc.algorithm()).toList());
    }
  }

  @Test
  void aWrongDepthEndsTheBench() {
    IllegalStateException wrong = assertThrows(IllegalStateException.class,
        () -> GraphBench.run(settings(name -> "reference", depth -> depth > 1 ? depth + 1 : depth), out()));
    assertTrue(wrong.getMessage().startsWith("wrong answer on kron, BFS from vertex "), wrong.getMessage());
    assertTrue(wrong.getMessage().contains("engine (reference backend) gives vertex "), wrong.getMessage());
  }

  @Test
  void settingsThatMeasureNothingAreRefused() {
    for (List<String> graphs : List.of(List.<String>of(), List.of("road"), List.of("kron", "kron"))) {
      assertThrows(IllegalArgumentException.class, () -> new GraphBench.Settings(graphs, 4, 4, 64, 1, name -> null));
    }
    assertThrows(IllegalArgumentException.class, () -> new GraphBench.Settings(List.of("grid"), 4, 1, 64, 1, name -> null));
    assertThrows(IllegalArgumentException.class, () -> new GraphBench.Settings(List.of("grid"), 4, 4, 64, 0, name -> null));
  }

  @Test
  void sourcesComeFromTheLargestComponent() {
    int[] labels = {0, 0, 2, 2, 2, 5};
    int[] sources = GraphBench.sources("g", labels, 5);
    for (int source : sources) {
      assertTrue(source >= 2 && source <= 4, "vertex " + source);
    }
    assertEquals(3, new HashSet<>(List.of(sources[0], sources[1], sources[2])).size());
    assertThrows(RuntimeException.class, () -> GraphBench.sources("g", new int[] {0, 1, 2}, 1));
  }

  private PrintStream out() {
    return new PrintStream(progress, true, StandardCharsets.UTF_8);
  }

  private static GraphBench.Settings settings(UnaryOperator<String> backend, IntUnaryOperator depth) {
    return new GraphBench.Settings(GraphBench.GRAPHS, 5, 4, 64, 3, name -> new SerialEngine(backend.apply(name), depth));
  }

  private static void saneMeasure(GraphBench.BfsResult result, boolean topologies) {
    GraphBench.BfsMeasure measure = result.measure();
    assertNotNull(measure, result.toString());
    assertTrue(measure.levels() >= 2 && measure.gteps() > 0 && measure.meanLevelMillis() > 0, result.toString());
    assertEquals(topologies, !measure.topologyMix().isEmpty(), result.toString());
  }

  /** The serial traversal behind the engine interface, each depth passed through {@code depth}. */
  private record SerialEngine(String backend, IntUnaryOperator depth) implements FrontierEngine {

    @Override
    public FrontierRun bfs(CsrGraph graph, int source, FrontierOptions options) {
      long started = System.nanoTime();
      int[] depths = new int[graph.vertexCount()];
      int levels = new SerialTraversal(graph).bfs(source, depths);
      for (int v = 0; v < depths.length; v++) {
        depths[v] = depth.applyAsInt(depths[v]);
      }
      return run(FrontierAlgorithm.BFS, graph, depths, levels, System.nanoTime() - started);
    }

    @Override
    public FrontierRun afforest(CsrGraph graph, FrontierOptions options) {
      long started = System.nanoTime();
      return run(FrontierAlgorithm.AFFOREST, graph, new SerialTraversal(graph).components(), 0,
          System.nanoTime() - started);
    }

    @Override
    public FrontierRun labelPropagation(CsrGraph graph, FrontierOptions options) {
      long started = System.nanoTime();
      return run(FrontierAlgorithm.LABEL_PROPAGATION, graph, new SerialTraversal(graph).components(), 1,
          System.nanoTime() - started);
    }

    private static FrontierRun run(FrontierAlgorithm algorithm, CsrGraph graph, int[] values, int levels, long nanos) {
      List<FrontierLevel> log = new ArrayList<>();
      for (int level = 0; level < levels; level++) {
        log.add(new FrontierLevel(level, 1, 1, new MegakernelTopologyDecision(MegakernelExecutionTopology.SparseFrontier,
            0, 0, 0), nanos / levels));
      }
      FrontierResidency residency = FrontierResidency.plan(algorithm, graph.vertexCount(), graph.edgeCount(), false,
          1L << 30);
      return new FrontierRun(algorithm, "test", values, new int[0], log, List.of(), nanos, residency,
          Optional.of(new FrontierCalibration(1, 1, 1)));
    }

    @Override
    public void close() {}
  }
}
