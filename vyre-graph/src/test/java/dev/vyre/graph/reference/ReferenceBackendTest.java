package dev.vyre.graph.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.GraphGenerators;
import dev.vyre.graph.frontier.FrontierEngine;
import dev.vyre.graph.frontier.FrontierEngines;
import dev.vyre.graph.frontier.FrontierOptions;
import org.junit.jupiter.api.Test;

/** The backend as the service loader finds it, and the engine's refusals. */
class ReferenceBackendTest {

  @Test
  void theServiceLoaderFindsTheReferenceBackendAndAutoTakesItWithoutCuda() {
    assertTrue(FrontierEngines.backends().stream().anyMatch(b -> b instanceof ReferenceFrontierBackend));
    assertEquals("reference", FrontierEngines.select("auto").name());
    assertEquals(0, FrontierEngines.select("reference").precedence());
    assertTrue(FrontierEngines.select("reference").availability().usable());
    try (FrontierEngine engine = FrontierEngines.open("reference"); CsrGraph graph = GraphGenerators.grid(5, 5)) {
      assertEquals("reference", engine.backend());
      ReferenceFrontierEngine reference = assertInstanceOf(ReferenceFrontierEngine.class, engine);
      assertEquals(Runtime.getRuntime().availableProcessors(), reference.workers());
      Oracles.checkBfs(graph, 12, engine.bfs(graph, 12, FrontierOptions.defaults()));
    }
  }

  @Test
  void thePerLevelLaunchBaselineIsCudasAndSaysSo() {
    try (ReferenceFrontierEngine engine = new ReferenceFrontierEngine(1); CsrGraph graph = GraphGenerators.grid(2, 2)) {
      FrontierOptions perLevel = FrontierOptions.defaults().launchingPerLevel();
      PipelineException e = assertThrows(PipelineException.class, () -> engine.bfs(graph, 0, perLevel));
      assertEquals(PipelineException.Variant.InvalidArgument, e.variant());
      assertTrue(e.getMessage().endsWith("Fix: use --launch-per-level with --backend cuda"), e.getMessage());
      assertThrows(PipelineException.class, () -> engine.labelPropagation(graph, perLevel));
    }
  }

  @Test
  void aSourceOutsideTheGraphIsAnInputErrorWithAFix() {
    try (ReferenceFrontierEngine engine = new ReferenceFrontierEngine(2); CsrGraph graph = GraphGenerators.grid(2, 3)) {
      for (int source : new int[] {-1, 6, Integer.MAX_VALUE}) {
        InputException e = assertThrows(InputException.class, () -> engine.bfs(graph, source, FrontierOptions.defaults()));
        assertTrue(e.getMessage().contains("vertex " + source), e.getMessage());
        assertTrue(e.getMessage().contains("Fix: give a source from 0 to 5"), e.getMessage());
      }
    }
  }

  @Test
  void aClosedEngineRefusesRunsAndMayBeClosedAgain() {
    ReferenceFrontierEngine engine = new ReferenceFrontierEngine(3);
    engine.close();
    engine.close();
    try (CsrGraph graph = GraphGenerators.grid(2, 2)) {
      PipelineException e = assertThrows(PipelineException.class, () -> engine.bfs(graph, 0, FrontierOptions.defaults()));
      assertEquals(PipelineException.Variant.Closed, e.variant());
    }
    assertThrows(InputException.class, () -> new ReferenceFrontierEngine(0));
  }
}
