package dev.vyre.graph.frontier;

import dev.vyre.driver.planner.MegakernelExecutionTopology;

/**
 * What the engine measured on its own workers before the first level, the three costs behind each
 * level's decision (see {@link FrontierPolicy}); the reference backend refines them from the levels
 * it runs ({@link #refinedBy}).
 *
 * @param barrierNanos what advancing one level costs without any work: the mean of several empty
 *     grid-wide barriers (CUDA) or worker barriers (reference)
 * @param edgeNanos what one edge of a level's work costs spread over all workers: the time of one
 *     parallel pass reading a probe of the graph's edges and the state of their targets, less one
 *     barrier, divided by the edges probed
 * @param fusedEdgeNanos what one edge costs on the one worker that runs fused levels (CUDA block 0,
 *     reference worker 0) while the others wait: the same kind of pass over a smaller probe, run by
 *     that worker alone, per edge probed
 */
public record FrontierCalibration(double barrierNanos, double edgeNanos, double fusedEdgeNanos) {

  /** A push level of fewer edges says more about its fixed costs than about an edge's: it refines nothing. */
  static final long REFINE_MIN_EDGES = 1024;
  /** The weight of a level's measured edge cost against the cost known before it. */
  static final double REFINE_WEIGHT = 0.25;

  /**
   * These costs refined by a level that ran: the probe behind them only reads edges, while a push
   * also claims and queues what it finds, and how much more that costs on one worker than spread
   * over all of them differs by machine and graph. A level that pushed on all workers ({@code
   * WarpSparseFrontier}, {@code SparseFrontier}) moves the edge cost a quarter of the way to its
   * time less one barrier per frontier edge; a fused one ({@code FusedWave}) moves the fused edge
   * cost to its time per edge. Other levels (pulls, whose time does not follow their frontier's
   * edges, and Hybrid levels, which may pull) and levels of fewer than {@link #REFINE_MIN_EDGES}
   * edges refine nothing.
   *
   * @return the refined costs, or this when the level refines nothing
   */
  public FrontierCalibration refinedBy(MegakernelExecutionTopology ran, long frontierEdges, long nanos) {
    boolean alone = ran == MegakernelExecutionTopology.FusedWave;
    boolean spread = ran == MegakernelExecutionTopology.WarpSparseFrontier
        || ran == MegakernelExecutionTopology.SparseFrontier;
    if (frontierEdges < REFINE_MIN_EDGES || !(alone || spread)) {
      return this;
    }
    double perEdge = (alone ? nanos : Math.max(0.0, nanos - barrierNanos)) / frontierEdges;
    return alone ? new FrontierCalibration(barrierNanos, edgeNanos, blend(fusedEdgeNanos, perEdge))
        : new FrontierCalibration(barrierNanos, blend(edgeNanos, perEdge), fusedEdgeNanos);
  }

  private static double blend(double known, double measured) {
    return known + REFINE_WEIGHT * (measured - known);
  }
}
