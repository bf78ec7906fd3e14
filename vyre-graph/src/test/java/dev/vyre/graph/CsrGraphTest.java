package dev.vyre.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class CsrGraphTest {

  /** A vertex count and edges among those vertices, with loops and duplicates likely. */
  record Input(int n, List<int[]> edges) {
    @Override
    public String toString() {
      StringBuilder s = new StringBuilder("n=" + n + " edges=");
      edges.forEach(e -> s.append(e[0]).append("->").append(e[1]).append(' '));
      return s.toString();
    }
  }

  private static CsrGraph build(Input input, boolean undirected) {
    try (EdgeList list = EdgeList.create()) {
      input.edges().forEach(e -> list.add(e[0], e[1]));
      return CsrGraph.build(list, input.n(), undirected);
    }
  }

  @Provide
  Arbitrary<Input> inputs() {
    return Arbitraries.integers().between(1, 40).flatMap(n -> {
      Arbitrary<int[]> edge = Combinators.combine(Arbitraries.integers().between(0, n - 1),
          Arbitraries.integers().between(0, n - 1)).as((a, b) -> new int[] {a, b});
      return edge.list().ofMaxSize(200).map(es -> new Input(n, es));
    });
  }

  @Property(tries = 300)
  void buildKeepsTheInvariantsAndTheDistinctArcs(@ForAll("inputs") Input input, @ForAll boolean undirected) {
    try (CsrGraph g = build(input, undirected)) {
      GraphFixtures.checkInvariants(g);
      assertEquals(GraphFixtures.expected(input.n(), input.edges(), undirected), GraphFixtures.adjacency(g));
      assertEquals(undirected, g.undirected());
    }
  }

  @Test
  void manyEdgesAcrossSeveralChunksAndTasksBuildTheSameAsTheReference() {
    // Enough edges for several EdgeList chunks and many parallel pieces; hubs make the atomics contend.
    int n = 5000;
    long m = 3_000_000;
    List<int[]> reference = new ArrayList<>();
    java.util.SplittableRandom random = new java.util.SplittableRandom(7);
    try (EdgeList list = EdgeList.allocate(m)) {
      for (long e = 0; e < m; e++) {
        int s = random.nextInt(8) == 0 ? 0 : random.nextInt(n);
        int t = random.nextInt(n);
        list.set(e, s, t);
        if (e % 100 == 0) {
          reference.add(new int[] {s, t});
        }
      }
      try (CsrGraph g = CsrGraph.build(list, n, true)) {
        GraphFixtures.checkInvariants(g);
        for (int[] e : reference) {
          assertTrue(e[0] == e[1] || GraphFixtures.contains(g, e[0], e[1]) && GraphFixtures.contains(g, e[1], e[0]));
        }
      }
    }
  }

  @Test
  void loopsAndDuplicatesAreDroppedAndNeighboursSorted() {
    try (CsrGraph g = build(new Input(4, List.of(new int[] {0, 3}, new int[] {0, 1}, new int[] {0, 3},
        new int[] {2, 2}, new int[] {3, 0})), false)) {
      assertEquals(4, g.vertexCount());
      assertEquals(3, g.edgeCount());
      assertEquals(List.of(List.of(1, 3), List.of(), List.of(), List.of(0)), GraphFixtures.adjacency(g));
      assertEquals(2, g.degree(0));
      assertEquals(0, g.degree(2));
      List<Integer> seen = new ArrayList<>();
      g.forEachNeighbor(0, seen::add);
      assertEquals(List.of(1, 3), seen);
      assertEquals(0, g.rowStart(0));
      assertEquals(2, g.rowEnd(0));
      assertEquals(3, g.column(1));
    }
  }

  @Test
  void anEmptyGraphHasOneOffsetAndNoColumns() {
    try (EdgeList list = EdgeList.create(); CsrGraph g = CsrGraph.build(list, 0, true)) {
      assertEquals(0, g.vertexCount());
      assertEquals(0, g.edgeCount());
      assertEquals(Long.BYTES, g.rowOffsets().byteSize());
      assertEquals(0, g.columnIndices().byteSize());
    }
  }

  @Test
  void anIdAtOrAboveTheVertexCountIsATypedError() {
    InputException e = assertThrows(InputException.class, () -> build(new Input(3, List.of(new int[] {0, 3})), false));
    assertTrue(e.getMessage().contains("edge 0 (0 -> 3)"), e.getMessage());
    assertTrue(e.getMessage().contains("Fix: "), e.getMessage());
    assertThrows(InputException.class, () -> build(new Input(-1, List.of()), false));
  }

  @Test
  void aVertexCountBeyondTheOffHeapLimitIsATypedErrorBeforeAnyAllocation() {
    // 2^31 - 1 vertices take 48 GiB of offsets; GraphReaderFuzzTest replays the one-line files that ask for them.
    try (EdgeList list = EdgeList.create()) {
      InputException e = assertThrows(InputException.class, () -> CsrGraph.build(list, Integer.MAX_VALUE, false));
      assertTrue(e.getMessage().contains("-XX:MaxDirectMemorySize"), e.getMessage());
    }
  }

  @Test
  void aBadIdFoundByAWorkerThreadIsStillTheTypedError() {
    try (EdgeList list = EdgeList.allocate(1_000_000)) {
      list.set(777_777, 1, 10);
      InputException e = assertThrows(InputException.class, () -> CsrGraph.build(list, 10, false));
      assertTrue(e.getMessage().contains("edge 777777 (1 -> 10)"), e.getMessage());
    }
  }

  @Test
  void theSegmentsAreReadOnlyAndOutOfRangeReadsThrow() {
    try (CsrGraph g = build(new Input(2, List.<int[]>of(new int[] {0, 1})), true)) {
      assertTrue(g.rowOffsets().isReadOnly());
      assertTrue(g.columnIndices().isReadOnly());
      assertThrows(IllegalArgumentException.class, () -> g.columnIndices().set(ValueLayout.JAVA_INT, 0, 5));
      assertThrows(IndexOutOfBoundsException.class, () -> g.neighbor(0, 1));
      assertThrows(IndexOutOfBoundsException.class, () -> g.degree(2));
      assertThrows(IndexOutOfBoundsException.class, () -> g.degree(-1));
      assertTrue(g.toString().contains("undirected"));
    }
  }

  @Test
  void closeFreesTheSegmentsAndMayBeRepeated() {
    CsrGraph g = build(new Input(2, List.<int[]>of(new int[] {0, 1})), false);
    var offsets = g.rowOffsets();
    g.close();
    g.close();
    assertFalse(offsets.scope().isAlive());
    assertThrows(IllegalStateException.class, () -> g.degree(0));
  }
}
