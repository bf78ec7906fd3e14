package dev.vyre.graph.frontier;

import dev.vyre.driver.planner.MegakernelByteLayout;
import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelGraphShape;
import dev.vyre.driver.planner.MegakernelMemoryException;
import dev.vyre.driver.planner.MegakernelMemoryPlan;
import dev.vyre.driver.planner.MegakernelMemoryPlanner;
import java.util.EnumSet;
import java.util.Set;

/**
 * Where a run keeps the graph, planned by {@code plan_megakernel_memory_budget} under a byte
 * budget: the graph in the workers' memory when the sparse plan fits with it, else the graph left
 * in host memory (on CUDA: pinned and mapped, read over the bus) and only the per-vertex state
 * resident; neither fitting is an error. The plan also says which topologies fit, and the memory
 * pressure every level's decision sees.
 *
 * <p>The byte layout priced: per vertex the row offsets (8 bytes; 16 with the transposed graph
 * pull needs on a directed graph), per edge the column (4; 8 with the transpose); frontier state
 * of two vertex queues (4 bytes a vertex each, with room for the hub lists) and three frontier
 * bitmaps; scratch of the level log; output of the results (4 bytes a vertex, 8 for BFS with
 * parents). Afforest keeps no frontier: its state is the hub list alone (the vertices of more
 * than {@link #HUB_DEGREE} edges, which the CUDA kernel links a block each) and its scratch a log
 * entry a phase.
 *
 * @param placement where the graph is read from
 * @param plan the sparse plan under the placement
 * @param fitting the topologies whose plan fits the budget under the placement
 * @param requiredBytes the sparse plan's bytes
 * @param budgetBytes the budget
 * @param memoryPressureBps required over budget, in basis points
 */
public record FrontierResidency(Placement placement, MegakernelMemoryPlan plan, Set<MegakernelExecutionTopology> fitting,
    long requiredBytes, long budgetBytes, long memoryPressureBps) {

  /** Where the graph's arrays live during the run. */
  public enum Placement {
    /** In the workers' own memory: device memory on CUDA, the graph's off-heap memory on the reference backend. */
    RESIDENT,
    /** In host memory read by the device over the bus (CUDA), because the resident plan does not fit. */
    HOST_MAPPED
  }

  /**
   * A vertex of more edges is a hub, which the CUDA kernel lists after each queue (out-hubs) and
   * once for the run (in-hubs), so each queue has room for twice as many hubs as the edges allow.
   */
  public static final int HUB_DEGREE = 1024;

  /** Level-log scratch: a few words a level, for up to this many levels before the log wraps. */
  static final long LEVEL_LOG_BYTES = 64L * 65_536;

  /**
   * The CUDA kernel's table of decisions for frontiers of fewer than 65,536 edges: a byte for each
   * edge count and previous topology (none or one of the six).
   */
  public static final long DECISION_TABLE_BYTES = 7L * 65_536;

  public FrontierResidency {
    fitting = Set.copyOf(fitting);
  }

  /**
   * Plans a run.
   *
   * @throws MegakernelMemoryException {@code OverBudget} when not even the per-vertex state fits
   */
  public static FrontierResidency plan(FrontierAlgorithm algorithm, int vertices, long edges, boolean transposed,
      long budgetBytes) {
    MegakernelGraphShape shape = new MegakernelGraphShape(vertices, edges);
    long bitmapBytes = ((vertices + 31L) / 32) * 4;
    boolean afforest = algorithm == FrontierAlgorithm.AFFOREST;
    long frontier = afforest ? 4L * (edges / (HUB_DEGREE + 1))
        : 2L * 4 * (vertices + 2 * (edges / (HUB_DEGREE + 1))) + 3 * bitmapBytes;
    long scratch = afforest ? 64L * Afforest.PLAN.size() : LEVEL_LOG_BYTES + DECISION_TABLE_BYTES;
    long output = (algorithm == FrontierAlgorithm.BFS ? 8L : 4L) * vertices;
    long perVertex = transposed ? 16 : 8;
    long perEdge = transposed ? 8 : 4;
    MegakernelByteLayout resident = new MegakernelByteLayout(perVertex, perEdge, frontier, scratch, output,
        budgetBytes);
    try {
      return planned(Placement.RESIDENT, shape, resident);
    } catch (MegakernelMemoryException e) {
      if (!e.isOverBudget()) {
        throw e;
      }
    }
    return planned(Placement.HOST_MAPPED, shape,
        new MegakernelByteLayout(0, 0, frontier, scratch, output, budgetBytes));
  }

  private static FrontierResidency planned(Placement placement, MegakernelGraphShape shape, MegakernelByteLayout layout) {
    MegakernelMemoryPlan sparse = MegakernelMemoryPlanner.planMegakernelMemoryBudget(
        MegakernelExecutionTopology.SparseFrontier, shape, layout);
    Set<MegakernelExecutionTopology> fitting = EnumSet.noneOf(MegakernelExecutionTopology.class);
    for (MegakernelExecutionTopology topology : MegakernelExecutionTopology.values()) {
      try {
        MegakernelMemoryPlanner.planMegakernelMemoryBudget(topology, shape, layout);
        fitting.add(topology);
      } catch (MegakernelMemoryException e) {
        if (!e.isOverBudget()) {
          throw e;
        }
      }
    }
    return new FrontierResidency(placement, sparse, fitting, sparse.requiredBytes(), layout.budgetBytes(),
        sparse.memoryPressureBps());
  }

  /** Whether {@code topology}'s plan fits the budget. */
  public boolean fits(MegakernelExecutionTopology topology) {
    return fitting.contains(topology);
  }

  /** One line for {@code --verbose}. */
  public String describe() {
    return "memory plan: graph " + (placement == Placement.RESIDENT ? "resident" : "in host memory (mapped)")
        + ", " + requiredBytes + " of " + budgetBytes + " bytes (" + memoryPressureBps + " bps), fitting " + fitting;
  }
}
