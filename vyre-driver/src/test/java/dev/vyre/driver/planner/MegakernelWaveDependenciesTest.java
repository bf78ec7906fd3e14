package dev.vyre.driver.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import org.junit.jupiter.api.Test;

/** The flat dependency list: growth, reuse and unsigned endpoints. */
class MegakernelWaveDependenciesTest {

  @Test
  void growsAndKeepsEdgesInOrder() {
    MegakernelWaveDependencies dependencies = new MegakernelWaveDependencies(1);
    for (int edge = 0; edge < 100; edge++) {
      dependencies.add(edge, edge + 1);
    }
    assertEquals(100, dependencies.size());
    assertEquals(42, dependencies.before(42));
    assertEquals(43, dependencies.after(42));
    dependencies.clear();
    assertTrue(dependencies.isEmpty());
  }

  @Test
  void pairsKeepUnsignedEndpoints() {
    MegakernelWaveDependencies dependencies = MegakernelWaveDependencies.of(-1L, 3);
    assertEquals(-1L, dependencies.before(0));
    InputException odd = assertThrows(InputException.class, () -> MegakernelWaveDependencies.of(1, 2, 3));
    assertTrue(odd.getMessage().contains("Fix:"));
  }
}
