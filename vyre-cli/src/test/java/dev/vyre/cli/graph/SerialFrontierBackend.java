package dev.vyre.cli.graph;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierBackend;
import dev.vyre.graph.frontier.FrontierCalibration;
import dev.vyre.graph.frontier.FrontierEngine;
import dev.vyre.graph.frontier.FrontierLevel;
import dev.vyre.graph.frontier.FrontierOptions;
import dev.vyre.graph.frontier.FrontierPolicy;
import dev.vyre.graph.frontier.FrontierResidency;
import dev.vyre.graph.frontier.FrontierRun;
import dev.vyre.runtime.spi.Availability;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A test double of the reference frontier backend, so that {@code vyre graph} is testable before
 * the real one is in the tree (#22; delete this file and its services entry then): a serial
 * level-synchronous BFS and a serial union-find, each level decided by the real {@link
 * FrontierPolicy} under the real residency plan, with a fixed calibration instead of a measured one.
 */
public final class SerialFrontierBackend implements FrontierBackend {

  @Override
  public String name() {
    return "reference";
  }

  @Override
  public int precedence() {
    return 0;
  }

  @Override
  public Availability availability() {
    return Availability.usable("test double: serial BFS and union-find");
  }

  @Override
  public FrontierEngine open() {
    return new Engine();
  }

  private static final class Engine implements FrontierEngine {

    private static final FrontierCalibration CALIBRATION = new FrontierCalibration(1_000, 1);

    @Override
    public String backend() {
      return "reference";
    }

    @Override
    public FrontierRun bfs(CsrGraph graph, int source, FrontierOptions options) {
      int n = graph.vertexCount();
      if (source < 0 || source >= n) {
        throw InputException.of("source", source + " is not a vertex", "pass a vertex below " + n);
      }
      FrontierResidency residency = residency(FrontierAlgorithm.BFS, graph, options);
      FrontierPolicy policy = new FrontierPolicy(n, graph.edgeCount(), residency, 8L * n, CALIBRATION,
          options.forcedTopology());
      long started = System.nanoTime();
      int[] depths = new int[n];
      int[] parents = new int[n];
      Arrays.fill(depths, -1);
      Arrays.fill(parents, -1);
      depths[source] = 0;
      parents[source] = source;
      List<FrontierLevel> levels = new ArrayList<>();
      MegakernelTopologyDecision previous = null;
      List<Integer> frontier = List.of(source);
      while (!frontier.isEmpty()) {
        long levelStarted = System.nanoTime();
        long edges = frontier.stream().mapToLong(graph::degree).sum();
        MegakernelTopologyDecision decision = policy.decide(frontier.size(), edges,
            previous == null ? null : previous.topology());
        List<Integer> next = new ArrayList<>();
        for (int u : frontier) {
          for (long e = graph.rowStart(u); e < graph.rowEnd(u); e++) {
            int v = graph.column(e);
            if (depths[v] < 0) {
              depths[v] = levels.size() + 1;
              parents[v] = u;
              next.add(v);
            }
          }
        }
        levels.add(new FrontierLevel(levels.size(), frontier.size(), edges, decision, System.nanoTime() - levelStarted));
        previous = decision;
        frontier = next;
      }
      return new FrontierRun(FrontierAlgorithm.BFS, backend(), depths, parents, levels, System.nanoTime() - started,
          residency, CALIBRATION);
    }

    @Override
    public FrontierRun components(CsrGraph graph, FrontierOptions options) {
      int n = graph.vertexCount();
      FrontierResidency residency = residency(FrontierAlgorithm.COMPONENTS, graph, options);
      FrontierPolicy policy = new FrontierPolicy(n, graph.edgeCount(), residency, 4L * n, CALIBRATION,
          options.forcedTopology());
      long started = System.nanoTime();
      MegakernelTopologyDecision decision = policy.decide(n, graph.edgeCount(), null);
      int[] labels = new int[n];
      Arrays.setAll(labels, v -> v);
      for (int u = 0; u < n; u++) {
        for (long e = graph.rowStart(u); e < graph.rowEnd(u); e++) {
          // The smaller root wins, so each root ends as its set's smallest id.
          int a = find(labels, u);
          int b = find(labels, graph.column(e));
          labels[Math.max(a, b)] = Math.min(a, b);
        }
      }
      for (int v = 0; v < n; v++) {
        labels[v] = find(labels, v);
      }
      long nanos = System.nanoTime() - started;
      return new FrontierRun(FrontierAlgorithm.COMPONENTS, backend(), labels, new int[0],
          List.of(new FrontierLevel(0, n, graph.edgeCount(), decision, nanos)), nanos, residency, CALIBRATION);
    }

    private static int find(int[] parent, int v) {
      while (parent[v] != v) {
        v = parent[v];
      }
      return v;
    }

    private static FrontierResidency residency(FrontierAlgorithm algorithm, CsrGraph graph, FrontierOptions options) {
      return FrontierResidency.plan(algorithm, graph.vertexCount(), graph.edgeCount(), !graph.undirected(),
          options.memoryBudgetBytes().orElse(Runtime.getRuntime().maxMemory()));
    }

    @Override
    public void close() {}
  }
}
