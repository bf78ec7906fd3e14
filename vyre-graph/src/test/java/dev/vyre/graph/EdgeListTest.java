package dev.vyre.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import org.junit.jupiter.api.Test;

class EdgeListTest {

  @Test
  void addGrowsAcrossChunksAndKeepsEveryEdge() {
    int count = (1 << 20) + 5;
    try (EdgeList list = EdgeList.create()) {
      for (int i = 0; i < count; i++) {
        list.add(i, count - i);
      }
      assertEquals(count, list.size());
      for (int i : new int[] {0, 1, (1 << 20) - 1, 1 << 20, count - 1}) {
        assertEquals(i, list.source(i));
        assertEquals(count - i, list.target(i));
      }
    }
  }

  @Test
  void allocateGivesZeroedEdgesToSet() {
    try (EdgeList list = EdgeList.allocate(3)) {
      assertEquals(3, list.size());
      assertEquals(0, list.source(2));
      list.set(2, 7, 9);
      assertEquals(7, list.source(2));
      assertEquals(9, list.target(2));
      assertThrows(IndexOutOfBoundsException.class, () -> list.set(3, 1, 1));
      assertThrows(IndexOutOfBoundsException.class, () -> list.source(-1));
    }
  }

  @Test
  void negativeIdsAndCountsAreTypedErrors() {
    try (EdgeList list = EdgeList.create()) {
      InputException e = assertThrows(InputException.class, () -> list.add(-1, 0));
      assertTrue(e.getMessage().contains("Fix: "));
    }
    assertThrows(InputException.class, () -> EdgeList.allocate(-1));
  }
}
