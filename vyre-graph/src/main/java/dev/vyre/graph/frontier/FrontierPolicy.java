package dev.vyre.graph.frontier;

import dev.vyre.driver.planner.MegakernelExecutionSample;
import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelGraphShape;
import dev.vyre.driver.planner.MegakernelMemoryBudget;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import dev.vyre.driver.planner.MegakernelTopologySelector;
import java.util.Optional;

/**
 * The decision taken before each level: which topology runs it. Both backends take it the same
 * way for the same calibration (the CUDA kernel carries a port of this class and of the seed
 * selector, and a GPU test holds the two to the same answers); the reference backend refines its
 * calibration from the push levels it runs and decides with a policy built on the refined costs.
 *
 * <p>The selector's inputs, all measured or planned, none invented:
 * <ul>
 *   <li>frontier density: the level's frontier edges over the graph's edges, the share of the
 *       graph's edges the level activates. Edges rather than vertices, because a level's work and
 *       the choice between pushing and pulling follow its edges: on a skewed graph a tenth of the
 *       vertices can hold half of the edges;
 *   <li>graph shape: the graph's vertices and edges (the selector derives the average degree);
 *   <li>memory: the residency plan's required and budget bytes ({@link FrontierResidency});
 *   <li>dispatch cost: what the level costs when spread over every worker, {@code barrier +
 *       frontierEdges x edge}, from the {@link FrontierCalibration} measured before the first level;
 *   <li>launch overhead: the measured barrier, the fixed cost of advancing one level;
 *   <li>fusion pressure: the share of the level's time that fusing saves, {@code max(0, dispatchCost
 *       - frontierEdges x fusedEdge) / dispatchCost} (0 when the dispatch cost is not positive): a
 *       fused level runs on one worker without the barrier, so it saves the barrier but pays for
 *       every edge at the one worker's rate; the selector clamps it to [0, 1];
 *   <li>readback: the bytes of results the host reads back at the end.
 * </ul>
 * The first level has no previous topology and takes the fresh decision; every later level passes
 * the previous level's topology for hysteresis ({@code select_megakernel_topology_stable}). A
 * topology whose memory plan does not fit the budget runs as {@code SparseFrontier}, as {@code
 * plan_megakernel_execution} downgrades; a forced topology replaces the selector's choice (and
 * skips that check) but keeps its metrics.
 */
public final class FrontierPolicy {

  private final MegakernelGraphShape shape;
  private final MegakernelMemoryBudget memory;
  private final long readbackBytes;
  private final FrontierCalibration calibration;
  private final FrontierResidency residency;
  private final Optional<MegakernelExecutionTopology> forced;

  /**
   * @param vertices the graph's vertices
   * @param edges the graph's stored (directed) edges
   * @param residency the memory plan the run follows
   * @param readbackBytes bytes of results read back at the end
   * @param calibration the costs measured before the first level
   * @param forced a topology every level must run with, or empty
   */
  public FrontierPolicy(int vertices, long edges, FrontierResidency residency, long readbackBytes,
      FrontierCalibration calibration, Optional<MegakernelExecutionTopology> forced) {
    this.shape = new MegakernelGraphShape(vertices, edges);
    this.memory = new MegakernelMemoryBudget(residency.requiredBytes(), residency.budgetBytes());
    this.readbackBytes = readbackBytes;
    this.calibration = calibration;
    this.residency = residency;
    this.forced = forced;
  }

  /** The costs it decides with. */
  public FrontierCalibration calibration() {
    return calibration;
  }

  /**
   * The topology of the next level.
   *
   * @param frontierVertices vertices in the level's input frontier (the level's record; the decision
   *     itself reads its edges)
   * @param frontierEdges the sum of their out-degrees
   * @param previous the previous level's topology, or null for the first level
   */
  public MegakernelTopologyDecision decide(long frontierVertices, long frontierEdges,
      MegakernelExecutionTopology previous) {
    double barrier = calibration.barrierNanos();
    double dispatchCost = barrier + (double) frontierEdges * calibration.edgeNanos();
    double fusedCost = (double) frontierEdges * calibration.fusedEdgeNanos();
    double fusionPressure = dispatchCost > 0.0 ? Math.max(0.0, dispatchCost - fusedCost) / dispatchCost : 0.0;
    double density = shape.edgeCount() == 0 ? 0.0 : (double) frontierEdges / (double) shape.edgeCount();
    MegakernelExecutionSample sample = new MegakernelExecutionSample(dispatchCost, density, readbackBytes);
    MegakernelTopologyDecision decision = previous == null
        ? MegakernelTopologySelector.selectMegakernelTopology(sample, shape, memory, barrier, fusionPressure)
        : MegakernelTopologySelector.selectMegakernelTopologyStable(sample, shape, memory, barrier, fusionPressure,
            previous);
    if (forced.isPresent()) {
      return decision.withTopology(forced.get());
    }
    return residency.fits(decision.topology()) ? decision
        : decision.withTopology(MegakernelExecutionTopology.SparseFrontier);
  }
}
