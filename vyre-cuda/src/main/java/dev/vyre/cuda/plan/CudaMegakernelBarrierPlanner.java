package dev.vyre.cuda.plan;

import dev.vyre.driver.Accounting;
import dev.vyre.driver.planner.MegakernelBarrierPlan;
import dev.vyre.driver.planner.MegakernelBarrierPlanException;
import dev.vyre.driver.planner.MegakernelBarrierPlanner;
import dev.vyre.driver.planner.MegakernelBarrierScratch;
import dev.vyre.driver.planner.MegakernelByteLayout;
import dev.vyre.driver.planner.MegakernelExecutionPlan;
import dev.vyre.driver.planner.MegakernelExecutionSample;
import dev.vyre.driver.planner.MegakernelFrontierMemoryPlan;
import dev.vyre.driver.planner.MegakernelFrontierMemoryPlanException;
import dev.vyre.driver.planner.MegakernelFrontierMemoryPlanner;
import dev.vyre.driver.planner.MegakernelFrontierWave;
import dev.vyre.driver.planner.MegakernelGraphShape;
import dev.vyre.driver.planner.MegakernelMemoryException;
import dev.vyre.driver.planner.MegakernelWaveDependencies;
import java.util.List;

/**
 * The CUDA entry points of vyre's {@code megakernel_barrier_planner.rs}: barrier planning under
 * its CUDA names, and frontier execution planning, which stitches the barrier planner, the
 * frontier memory planner and the {@link CudaMegakernelPlanCache} together.
 */
public final class CudaMegakernelBarrierPlanner {

  private CudaMegakernelBarrierPlanner() {}

  /** {@code plan_cuda_megakernel_barriers}: the driver's barrier planner. */
  public static MegakernelBarrierPlan planCudaMegakernelBarriers(long waveCount, MegakernelWaveDependencies dependencies) {
    return MegakernelBarrierPlanner.planMegakernelBarriers(waveCount, dependencies);
  }

  /** {@code plan_cuda_megakernel_barriers_with_scratch}: the driver's barrier planner with reusable scratch. */
  public static MegakernelBarrierPlan planCudaMegakernelBarriersWithScratch(long waveCount,
      MegakernelWaveDependencies dependencies, MegakernelBarrierScratch scratch) {
    return MegakernelBarrierPlanner.planMegakernelBarriersWithScratch(waveCount, dependencies, scratch);
  }

  /** {@code plan_cuda_frontier_megakernel_execution}: as the scratch variant, with a scratch sized for this graph. */
  public static CudaMegakernelFrontierExecutionPlan planCudaFrontierMegakernelExecution(CudaMegakernelPlanCache cache,
      CudaMegakernelPlanIdentity identity, MegakernelExecutionSample sample, MegakernelGraphShape graph,
      long bytesPerNode, long bytesPerEdge, List<MegakernelFrontierWave> waves, MegakernelWaveDependencies dependencies,
      long budgetBytes, double launchOverheadNs, double fusionPressure) {
    MegakernelBarrierScratch scratch;
    try {
      scratch = MegakernelBarrierScratch.tryWithCapacity(waves.size(), dependencies.size());
    } catch (MegakernelBarrierPlanException e) {
      throw CudaMegakernelFrontierExecutionPlanException.barrier(e);
    }
    return planCudaFrontierMegakernelExecutionWithScratch(cache, identity, sample, graph, bytesPerNode, bytesPerEdge,
        waves, dependencies, budgetBytes, launchOverheadNs, fusionPressure, scratch);
  }

  /**
   * {@code plan_cuda_frontier_megakernel_execution_with_scratch}: prices the resident graph
   * (overflow is reported before any dependency is looked at), plans the frontier memory of the
   * waves against the budget, then asks the cache for a memory-validated topology using the peak
   * group bytes and the amortized readback, so static fused-group output can trigger fusion even
   * when the runtime sample saw no readback. The barrier groups of the result are a view of
   * {@code scratch}.
   *
   * @throws CudaMegakernelFrontierExecutionPlanException {@code ByteCountOverflow} for the graph
   *     layout bytes; the frontier planner's errors under the same variant names; {@code Memory}
   *     when the cache-backed execution plan fails
   */
  public static CudaMegakernelFrontierExecutionPlan planCudaFrontierMegakernelExecutionWithScratch(
      CudaMegakernelPlanCache cache, CudaMegakernelPlanIdentity identity, MegakernelExecutionSample sample,
      MegakernelGraphShape graph, long bytesPerNode, long bytesPerEdge, List<MegakernelFrontierWave> waves,
      MegakernelWaveDependencies dependencies, long budgetBytes, double launchOverheadNs, double fusionPressure,
      MegakernelBarrierScratch scratch) {
    long graphBytes = graphResidentBytes(graph, bytesPerNode, bytesPerEdge);
    MegakernelFrontierMemoryPlan memory;
    try {
      memory = MegakernelFrontierMemoryPlanner.planMegakernelFrontierMemoryWithScratch(waves, dependencies, graphBytes,
          budgetBytes, sample.readbackBytes(), scratch);
    } catch (MegakernelFrontierMemoryPlanException e) {
      throw CudaMegakernelFrontierExecutionPlanException.from(e);
    }
    MegakernelExecutionSample topologySample = sample.withReadbackBytes(memory.amortizedReadbackBytes());
    MegakernelByteLayout bytes = new MegakernelByteLayout(bytesPerNode, bytesPerEdge, memory.peakFrontierBytes(),
        memory.peakScratchBytes(), memory.peakOutputBytes(), budgetBytes);
    MegakernelExecutionPlan execution;
    try {
      execution = cache.getOrPlanExecution(identity, topologySample, graph, bytes, launchOverheadNs, fusionPressure);
    } catch (MegakernelMemoryException e) {
      throw CudaMegakernelFrontierExecutionPlanException.memory(e);
    }
    return new CudaMegakernelFrontierExecutionPlan(execution, memory.barriers(), memory.peakFrontierBytes(),
        memory.peakScratchBytes(), memory.peakOutputBytes(), topologySample.readbackBytes(), memory.maxGroupWidth());
  }

  private static long graphResidentBytes(MegakernelGraphShape graph, long bytesPerNode, long bytesPerEdge) {
    long nodeBytes = Accounting.checkedMulU64(graph.nodeCount(), bytesPerNode, "node layout bytes",
        CudaMegakernelFrontierExecutionPlanException::byteCountOverflow);
    long edgeBytes = Accounting.checkedMulU64(graph.edgeCount(), bytesPerEdge, "edge layout bytes",
        CudaMegakernelFrontierExecutionPlanException::byteCountOverflow);
    return Accounting.checkedAddU64(nodeBytes, edgeBytes, "graph layout bytes",
        CudaMegakernelFrontierExecutionPlanException::byteCountOverflow);
  }
}
