package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.GraphGenerators;
import dev.vyre.graph.MatrixMarketReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vyre graph bfs}, {@code cc} and {@code gen} on tiny hand-made graphs, on the reference
 * frontier backend: the output files, the summary, the verbose level log and the errors.
 */
class GraphCommandTest {

  @TempDir Path dir;
  private Path mtx;
  private Path edges;

  @BeforeEach
  void graphs() throws IOException {
    // Undirected: the path 0-1-2-3 and the pair 4-5.
    mtx = Files.writeString(dir.resolve("path.mtx"), """
        %%MatrixMarket matrix coordinate pattern symmetric
        % two components
        6 6 4
        2 1
        3 2
        4 3
        6 5
        """);
    // Directed: the cycle 0 -> 1 -> 2 -> 0, the arc 3 -> 2, and 4 and 5 alone (5's self loop is dropped).
    edges = Files.writeString(dir.resolve("edges.txt"), """
        # a cycle and a tail
        0 1
        1 2
        2 0\t# closes the cycle
        3 2

        5 5
        """);
  }

  @Test
  void bfsWritesEveryVertexsDepth() throws IOException {
    Path out = dir.resolve("depths.tsv");
    CliRun run = CliRun.of("graph", "bfs", mtx.toString(), "--source", "0", "--output", out.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals("0\t0\n1\t1\n2\t2\n3\t3\n4\t-1\n5\t-1\n", Files.readString(out));
    assertTrue(run.out().contains("reached: 4 of 6 vertices"), run.out());
    assertTrue(run.out().contains("levels: 4"), run.out());
    assertTrue(run.out().contains("GTEPS: "), run.out());

    CliRun directed = CliRun.of("graph", "bfs", edges.toString(), "-s", "0", "-o", out.toString());
    assertEquals(0, directed.status(), directed.err());
    assertEquals("0\t0\n1\t1\n2\t2\n3\t-1\n4\t-1\n5\t-1\n", Files.readString(out));
    CliRun undirected = CliRun.of("graph", "bfs", edges.toString(), "-s", "0", "-o", out.toString(), "--undirected");
    assertEquals(0, undirected.status(), undirected.err());
    assertEquals("0\t0\n1\t1\n2\t1\n3\t2\n4\t-1\n5\t-1\n", Files.readString(out));
  }

  @Test
  void ccWritesEveryVertexsSmallestComponentId() throws IOException {
    Path out = dir.resolve("labels.tsv");
    CliRun run = CliRun.of("graph", "cc", mtx.toString(), "--output", out.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals("0\t0\n1\t0\n2\t0\n3\t0\n4\t4\n5\t4\n", Files.readString(out));
    assertTrue(run.out().contains("components: 2"), run.out());
    assertTrue(run.out().contains("algorithm: afforest\n") && run.out().contains("phases: 8\n"), run.out());
    CliRun propagated = CliRun.of("graph", "cc", mtx.toString(), "--output", out.toString(), "--algorithm",
        "label-propagation", "--topology", "SparseFrontier");
    assertEquals(0, propagated.status(), propagated.err());
    assertEquals("0\t0\n1\t0\n2\t0\n3\t0\n4\t4\n5\t4\n", Files.readString(out));
    assertTrue(propagated.out().contains("algorithm: label-propagation\n") && propagated.out().contains("levels: "),
        propagated.out());
    CliRun weak = CliRun.of("graph", "cc", edges.toString(), "--output", out.toString());
    assertEquals(0, weak.status(), weak.err());
    assertEquals("0\t0\n1\t0\n2\t0\n3\t0\n4\t4\n5\t5\n", Files.readString(out));
  }

  @Test
  void ccVerboseTellsWhatEachAfforestPhaseDid() {
    CliRun run = CliRun.of("graph", "cc", mtx.toString(), "--verbose");
    assertEquals(0, run.status(), run.err());
    List<String> phases = run.err().lines().filter(line -> line.startsWith("vyre graph cc: phase ")).toList();
    assertEquals(List.of("init", "link neighbour 0", "compress 0", "link neighbour 1", "compress 1", "sample",
        "link rest", "final compress"), phases.stream()
        .map(line -> line.substring("vyre graph cc: phase ".length(), line.indexOf(':', "vyre graph cc: phase ".length())))
        .toList(), run.err());
    assertTrue(phases.getFirst().matches("vyre graph cc: phase init: 6 vertices, 0 edges, [0-9.]+ ms"), run.err());
    assertTrue(run.err().contains("vyre graph cc: 8 phases in "), run.err());
    assertTrue(run.err().lines().noneMatch(line -> line.contains("calibration")), run.err());
  }

  @Test
  void theJsonSummaryHasTheRunAndEveryLevel() throws IOException {
    CliRun run = CliRun.of("graph", "bfs", mtx.toString(), "--source", "1", "--json");
    assertEquals(0, run.status(), run.err());
    assertEquals(1, run.out().lines().count(), run.out());
    JsonNode summary = Json.MAPPER.readTree(run.out());
    assertEquals("bfs", summary.get("algorithm").asText());
    assertEquals("reference", summary.get("backend").asText());
    assertEquals(6, summary.get("vertices").asInt());
    assertEquals(4, summary.get("edges").asInt());
    assertTrue(summary.get("undirected").asBoolean());
    assertEquals(1, summary.get("source").asInt());
    assertEquals(4, summary.get("reached").asInt());
    assertEquals(3, summary.get("traversed_edges").asInt());
    assertEquals(3, summary.get("levels").asInt());
    assertTrue(summary.get("seconds").asDouble() > 0 && summary.get("gteps").asDouble() > 0, run.out());
    assertTrue(summary.get("memory_plan").asText().startsWith("memory plan: graph resident"), run.out());
    JsonNode calibration = summary.get("calibration");
    for (String cost : List.of("barrier_ns", "edge_ns", "fused_edge_ns")) {
      assertTrue(calibration.get(cost).isNumber(), run.out());
    }
    JsonNode levels = summary.get("per_level");
    assertEquals(3, levels.size());
    assertEquals(List.of(1, 2, 1), List.of(levels.get(0).get("frontier_vertices").asInt(),
        levels.get(1).get("frontier_vertices").asInt(), levels.get(2).get("frontier_vertices").asInt()));
    long mixed = 0;
    for (var entry : summary.get("topology_mix").properties()) {
      mixed += entry.getValue().asLong();
    }
    assertEquals(3, mixed);
    for (JsonNode level : levels) {
      assertTrue(level.get("explanation").asText().startsWith("megakernel-topology-v1|topology="
          + level.get("topology").asText() + "|"), level.toString());
    }

    CliRun cc = CliRun.of("graph", "cc", mtx.toString(), "--json");
    JsonNode components = Json.MAPPER.readTree(cc.out());
    assertEquals("cc", components.get("algorithm").asText());
    assertEquals("afforest", components.get("method").asText());
    assertEquals(2, components.get("components").asInt());
    assertTrue(!components.has("gteps") && !components.has("source") && !components.has("calibration"), cc.out());
    JsonNode phases = components.get("per_phase");
    assertEquals(8, phases.size());
    assertEquals("LINK_NEIGHBOUR", phases.get(1).get("step").asText());
    assertEquals(6, phases.get(1).get("vertices").asInt(), cc.out());
    assertEquals(0, phases.get(1).get("round").asInt());
  }

  @Test
  void verboseTellsTheBackendThePlanAndEachLevelsDecision() {
    CliRun run = CliRun.of("graph", "bfs", mtx.toString(), "--source", "0", "--verbose", "--topology", "DenseFrontier");
    assertEquals(0, run.status(), run.err());
    String err = run.err();
    assertTrue(err.contains("vyre graph bfs: backend: reference, the usable backend of highest precedence (auto) among"),
        err);
    assertTrue(err.contains("reference (precedence 0, usable: "), err);
    assertTrue(err.contains("vyre graph bfs: memory plan: graph resident, "), err);
    assertTrue(err.lines().anyMatch(line -> line.matches(
        "vyre graph bfs: calibration: barrier [0-9.]+ ns, edge [0-9.]+ ns, fused edge [0-9.]+ ns")), err);
    for (int level = 0; level < 4; level++) {
      assertTrue(err.contains("vyre graph bfs: level " + level + ": frontier 1 vertices"), err);
    }
    assertEquals(4, err.lines().filter(line -> line.contains("DenseFrontier, ")
        && line.contains("megakernel-topology-v1|topology=DenseFrontier|") && line.contains("|reason=")).count(), err);
    assertTrue(err.contains("vyre graph bfs: 4 levels in "), err);
    assertTrue(err.contains("vyre graph bfs: grid-wide levels on ") && err.contains(" workers, a level: push or pull "),
        err);
    assertTrue(run.out().contains("topologies: DenseFrontier 4"), run.out());
  }

  @Test
  void genWritesGraphsThatReadBack() throws IOException {
    Path kron = dir.resolve("kron.mtx");
    CliRun run = CliRun.of("graph", "gen", "kron", "--scale", "5", "--edge-factor", "4", "--seed", "7", "-o",
        kron.toString());
    assertEquals(0, run.status(), run.err());
    try (CsrGraph read = MatrixMarketReader.read(kron); CsrGraph made = GraphGenerators.kronecker(5, 4, 7)) {
      assertEquals(32, read.vertexCount());
      assertTrue(read.undirected());
      assertEquals(made.edgeCount(), read.edgeCount());
      assertTrue(run.out().startsWith("wrote " + kron + ": 32 vertices, " + made.edgeCount() / 2 + " undirected edges"),
          run.out());
    }
    Path grid = dir.resolve("grid.mtx");
    assertEquals(0, CliRun.of("graph", "gen", "grid", "--rows", "3", "--cols", "4", "-o", grid.toString()).status());
    try (CsrGraph read = MatrixMarketReader.read(grid)) {
      assertEquals(12, read.vertexCount());
      assertEquals(2 * 17, read.edgeCount());
    }
    Path uniform = dir.resolve("uniform.mtx");
    assertEquals(0, CliRun.of("graph", "gen", "uniform", "--vertices", "40", "--degree", "4", "-o", uniform.toString())
        .status());
    try (CsrGraph read = MatrixMarketReader.read(uniform)) {
      assertEquals(40, read.vertexCount());
    }
    CliRun bfs = CliRun.of("graph", "bfs", grid.toString(), "--source", "0", "--json");
    assertEquals(6, Json.MAPPER.readTree(bfs.out()).get("levels").asInt(), bfs.out());
  }

  @Test
  void malformedGraphsAreOneLineNamingTheLine() throws IOException {
    Path badMtx = Files.writeString(dir.resolve("bad.mtx"), """
        %%MatrixMarket matrix coordinate pattern general
        3 3 2
        1 2
        1 x
        """);
    Path badEdges = Files.writeString(dir.resolve("bad.txt"), "0 1\n1 2 3\n");
    CliRun mtxRun = CliRun.of("graph", "bfs", badMtx.toString(), "--source", "0");
    CliRun edgeRun = CliRun.of("graph", "cc", badEdges.toString(), "--undirected");
    for (CliRun run : List.of(mtxRun, edgeRun)) {
      String line = run == mtxRun ? badMtx + ":4: " : badEdges + ":2: ";
      assertEquals(2, run.status(), run.err());
      assertTrue(run.err().startsWith("vyre: " + line) && run.err().contains(". Fix: "), run.err());
      assertEquals(1, run.err().lines().count(), run.err());
      assertEquals("", run.out());
    }
  }

  @Test
  void badOptionsExitTwoWithAFix() {
    List<List<String>> cases = List.of(
        List.of("bfs", mtx.toString(), "--source", "6"),
        List.of("bfs", mtx.toString(), "--source", "0", "--topology", "Diagonal"),
        List.of("bfs", mtx.toString(), "--source", "0", "--backend", "gpu"),
        List.of("cc", mtx.toString(), "--memory-budget", "0"),
        List.of("cc", mtx.toString(), "--memory-budget", "1"),
        List.of("cc", mtx.toString(), "--undirected"),
        List.of("cc", dir.resolve("missing.mtx").toString()),
        List.of("bfs", mtx.toString()),
        List.of("cc", mtx.toString(), "--algorithm", "magic"),
        List.of("cc", mtx.toString(), "--topology", "DenseFrontier"));
    List<String> starts = List.of("vyre: --source: 6 is not a vertex of ", "vyre graph bfs: Invalid value for option"
        + " '--topology'", "vyre: --backend: unknown backend 'gpu'", "vyre: --memory-budget: 0 bytes",
        "vyre: ", "vyre: --undirected: ", "vyre: " + dir.resolve("missing.mtx") + ": cannot read the file",
        "vyre graph bfs: Missing required option: '--source=VERTEX'", "vyre: --algorithm: unknown algorithm 'magic'",
        "vyre: --topology: DenseFrontier was forced, but a topology is how a level runs");
    for (int i = 0; i < cases.size(); i++) {
      List<String> args = new ArrayList<>(List.of("graph"));
      args.addAll(cases.get(i));
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertEquals(2, run.status(), args + ": " + run.err());
      assertTrue(run.err().startsWith(starts.get(i)) && run.err().contains("Fix: "), args + ": " + run.err());
      assertEquals("", run.out(), args.toString());
    }
  }
}
