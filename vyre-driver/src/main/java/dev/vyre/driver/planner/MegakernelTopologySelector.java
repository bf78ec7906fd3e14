package dev.vyre.driver.planner;

import dev.vyre.driver.BasisPoints;
import dev.vyre.driver.Unsigned;

/**
 * vyre's topology selection ({@code select_megakernel_topology} and its hysteresis variant
 * {@code select_megakernel_topology_stable}): picks the execution topology of a wave from its
 * frontier density, graph degree, memory pressure, launch pressure and fusion pressure.
 * Thresholds are evaluated as the same double expressions as vyre's, so values that sit exactly
 * on {@code threshold ± hysteresis} land on the same side.
 */
public final class MegakernelTopologySelector {

  static final double WARP_SPARSE_DENSITY = 0.03125;
  static final double SPARSE_DENSITY = 0.125;
  static final double DENSE_DENSITY = 0.70;
  static final double BLOCK_DENSE_DENSITY = 0.85;
  static final double FUSION_PRESSURE = 0.70;
  static final double FUSION_PRESSURE_HYSTERESIS = 0.10;
  static final double FRONTIER_HYSTERESIS = 0.025;
  static final long MEMORY_RED_ZONE_BPS = 9_000;
  static final long MEMORY_HYSTERESIS_BPS = 250;
  static final long LAUNCH_PRESSURE_BPS = 1_500;
  static final long LAUNCH_HYSTERESIS_BPS = 250;
  /** A fused plan must leave this margin below the red zone. */
  static final long FUSION_MEMORY_MARGIN_BPS = 500;
  static final long FUSION_READBACK_BYTES = 4_096;
  static final long DENSE_AVERAGE_DEGREE_BPS = 20_000;
  static final long WARP_SPARSE_AVERAGE_DEGREE_BPS = 80_000;

  private MegakernelTopologySelector() {}

  /** {@code select_megakernel_topology}: the first matching rule wins, memory safety first. */
  public static MegakernelTopologyDecision selectMegakernelTopology(MegakernelExecutionSample sample,
      MegakernelGraphShape graph, MegakernelMemoryBudget memory, double launchOverheadNs, double fusionPressure) {
    long memoryPressure = pressureBps(memory.requiredBytes(), memory.budgetBytes());
    long averageDegree = BasisPoints.ratioU64Wide(graph.edgeCount(), graph.nodeCount(),
        graph.edgeCount() == 0 ? 0 : Unsigned.U64_MAX);
    double cost = sample.dispatchCostNs();
    long launchPressure = cost <= 0.0 || !Double.isFinite(cost) ? 0
        : BasisPoints.finiteRatioRound(BasisPoints.maxIgnoringNaN(launchOverheadNs, 0.0), cost,
            Unsigned.U32_MAX, Unsigned.U32_MAX);
    double density = finiteUnit(sample.frontierDensity());
    double fusion = finiteUnit(fusionPressure);
    MegakernelExecutionTopology topology;
    if (memoryPressure >= MEMORY_RED_ZONE_BPS) {
      topology = MegakernelExecutionTopology.SparseFrontier;
    } else if (fusion >= FUSION_PRESSURE && launchPressure >= LAUNCH_PRESSURE_BPS
        && Long.compareUnsigned(sample.readbackBytes(), FUSION_READBACK_BYTES) >= 0
        && memoryPressure <= MEMORY_RED_ZONE_BPS - FUSION_MEMORY_MARGIN_BPS) {
      topology = MegakernelExecutionTopology.FusedWave;
    } else if (density <= WARP_SPARSE_DENSITY && Long.compareUnsigned(averageDegree, WARP_SPARSE_AVERAGE_DEGREE_BPS) <= 0) {
      topology = MegakernelExecutionTopology.WarpSparseFrontier;
    } else if (density <= SPARSE_DENSITY) {
      topology = MegakernelExecutionTopology.SparseFrontier;
    } else if (density >= BLOCK_DENSE_DENSITY && Long.compareUnsigned(averageDegree, DENSE_AVERAGE_DEGREE_BPS) >= 0) {
      topology = MegakernelExecutionTopology.BlockDenseFrontier;
    } else if (density >= DENSE_DENSITY && Long.compareUnsigned(averageDegree, DENSE_AVERAGE_DEGREE_BPS) >= 0) {
      topology = MegakernelExecutionTopology.DenseFrontier;
    } else {
      topology = MegakernelExecutionTopology.HybridFrontier;
    }
    return new MegakernelTopologyDecision(topology, memoryPressure, averageDegree, launchPressure);
  }

  /**
   * {@code select_megakernel_topology_stable}: the fresh decision, whose topology may be held at
   * {@code previous} while the metrics stay within the hysteresis band; the metrics are always
   * the fresh ones. In the red zone the fresh decision stands.
   */
  public static MegakernelTopologyDecision selectMegakernelTopologyStable(MegakernelExecutionSample sample,
      MegakernelGraphShape graph, MegakernelMemoryBudget memory, double launchOverheadNs, double fusionPressure,
      MegakernelExecutionTopology previous) {
    MegakernelTopologyDecision fresh = selectMegakernelTopology(sample, graph, memory, launchOverheadNs, fusionPressure);
    return fresh.withTopology(stabilize(fresh, sample, fusionPressure, previous));
  }

  private static MegakernelExecutionTopology stabilize(MegakernelTopologyDecision fresh,
      MegakernelExecutionSample sample, double fusionPressure, MegakernelExecutionTopology previous) {
    long memoryPressure = fresh.memoryPressureBps();
    if (memoryPressure >= MEMORY_RED_ZONE_BPS) {
      return fresh.topology();
    }
    long memoryFloor = MEMORY_RED_ZONE_BPS - MEMORY_HYSTERESIS_BPS;
    boolean wasSparse = previous == MegakernelExecutionTopology.SparseFrontier
        || previous == MegakernelExecutionTopology.WarpSparseFrontier;
    if (wasSparse && memoryPressure >= memoryFloor) {
      return MegakernelExecutionTopology.SparseFrontier;
    }
    double density = finiteUnit(sample.frontierDensity());
    double fusion = finiteUnit(fusionPressure);
    long degree = fresh.averageDegreeBps();
    boolean denseDegree = Long.compareUnsigned(degree, DENSE_AVERAGE_DEGREE_BPS) >= 0;
    MegakernelExecutionTopology raw = fresh.topology();
    boolean held = switch (previous) {
      case WarpSparseFrontier -> density <= WARP_SPARSE_DENSITY + FRONTIER_HYSTERESIS
          && Long.compareUnsigned(degree, WARP_SPARSE_AVERAGE_DEGREE_BPS) <= 0;
      case SparseFrontier -> density <= SPARSE_DENSITY + FRONTIER_HYSTERESIS;
      case HybridFrontier -> (raw == MegakernelExecutionTopology.SparseFrontier
          && density >= SPARSE_DENSITY - FRONTIER_HYSTERESIS)
          || ((raw == MegakernelExecutionTopology.DenseFrontier || raw == MegakernelExecutionTopology.BlockDenseFrontier)
              && density <= DENSE_DENSITY + FRONTIER_HYSTERESIS);
      case DenseFrontier -> density >= DENSE_DENSITY - FRONTIER_HYSTERESIS && denseDegree;
      case BlockDenseFrontier -> density >= BLOCK_DENSE_DENSITY - FRONTIER_HYSTERESIS && denseDegree;
      case FusedWave -> fusion >= FUSION_PRESSURE - FUSION_PRESSURE_HYSTERESIS
          && fresh.launchPressureBps() >= LAUNCH_PRESSURE_BPS - LAUNCH_HYSTERESIS_BPS
          && Long.compareUnsigned(sample.readbackBytes(), FUSION_READBACK_BYTES) >= 0
          && memoryPressure <= memoryFloor;
    };
    return held ? previous : raw;
  }

  /** Memory pressure as the selector sees it: required/budget in bps, clamped to 10000. */
  static long pressureBps(long requiredBytes, long budgetBytes) {
    long ratio = BasisPoints.ratioU64Wide(requiredBytes, budgetBytes, requiredBytes == 0 ? 0 : Unsigned.U64_MAX);
    return Long.compareUnsigned(ratio, BasisPoints.DENOMINATOR) > 0 ? BasisPoints.DENOMINATOR : ratio;
  }

  /** A density or pressure in [0, 1]; non-finite values count as 0. */
  private static double finiteUnit(double value) {
    return Double.isFinite(value) ? Math.clamp(value, 0.0, 1.0) : 0.0;
  }
}
