package dev.vyre.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class CsrDerivationTest {

  record Input(int n, List<int[]> edges) {
    @Override
    public String toString() {
      StringBuilder s = new StringBuilder("n=" + n + " edges=");
      edges.forEach(e -> s.append(e[0]).append("->").append(e[1]).append(' '));
      return s.toString();
    }

    List<int[]> reversed() {
      return edges.stream().map(e -> new int[] {e[1], e[0]}).toList();
    }
  }

  private static CsrGraph build(int n, List<int[]> edges, boolean undirected) {
    try (EdgeList list = EdgeList.create()) {
      edges.forEach(e -> list.add(e[0], e[1]));
      return CsrGraph.build(list, n, undirected);
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
  void theTransposeHoldsEveryArcReversed(@ForAll("inputs") Input input) {
    try (CsrGraph g = build(input.n(), input.edges(), false)) {
      CsrGraph t = g.transpose();
      GraphFixtures.checkInvariants(t);
      assertFalse(t.undirected());
      assertEquals(GraphFixtures.expected(input.n(), input.reversed(), false), GraphFixtures.adjacency(t));
    }
  }

  @Property(tries = 300)
  void theSymmetrizedGraphIsTheUndirectedBuild(@ForAll("inputs") Input input) {
    try (CsrGraph g = build(input.n(), input.edges(), false);
        CsrGraph reference = build(input.n(), input.edges(), true)) {
      CsrGraph s = g.symmetrized();
      GraphFixtures.checkInvariants(s);
      GraphFixtures.assertSameGraph(reference, s);
    }
  }

  @Test
  void manyEdgesAcrossParallelPiecesMatchAReverseBuild() {
    int n = 3000;
    SplittableRandom random = new SplittableRandom(11);
    List<int[]> edges = new ArrayList<>();
    for (int e = 0; e < 200_000; e++) {
      edges.add(new int[] {random.nextInt(6) == 0 ? 1 : random.nextInt(n), random.nextInt(n)});
    }
    try (CsrGraph g = build(n, edges, false); CsrGraph reverse = build(n, edges.stream()
        .map(e -> new int[] {e[1], e[0]}).toList(), false); CsrGraph undirected = build(n, edges, true)) {
      GraphFixtures.assertSameGraph(reverse, g.transpose());
      GraphFixtures.assertSameGraph(undirected, g.symmetrized());
    }
  }

  @Test
  void anUndirectedGraphIsItsOwnTransposeAndSymmetrization() {
    try (CsrGraph g = GraphGenerators.grid(3, 4)) {
      GraphFixtures.assertSameGraph(g, g.transpose());
      GraphFixtures.assertSameGraph(g, g.symmetrized());
      assertTrue(g.transpose().rowOffsets().address() == g.rowOffsets().address(), "a view, not a copy");
    }
  }

  @Test
  void derivedGraphsAreBuiltOnceOwnedByTheirGraphAndFreedWithIt() {
    CsrGraph g = build(3, List.of(new int[] {0, 1}, new int[] {1, 2}), false);
    CsrGraph t = g.transpose();
    assertSame(t, g.transpose());
    CsrGraph s = g.symmetrized();
    assertSame(s, g.symmetrized());
    t.close();
    s.close();
    assertEquals(1, t.degree(1), "closing a derived graph does nothing");
    assertEquals(2, s.degree(1));
    var reverseOffsets = t.rowOffsets();
    g.close();
    assertFalse(reverseOffsets.scope().isAlive());
    assertThrows(IllegalStateException.class, () -> s.degree(0));
    assertThrows(IllegalStateException.class, g::transpose);
  }
}
