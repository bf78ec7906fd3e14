package dev.vyre.cuda.plan;

import dev.vyre.driver.planner.MegakernelBarrierPlan;
import dev.vyre.driver.planner.MegakernelExecutionPlan;

/**
 * vyre's {@code CudaMegakernelFrontierExecutionPlan}: the cache-backed topology and memory plan of
 * a frontier wave DAG, its barrier groups after budget splitting, and the peak bytes of any one
 * group. Byte counts are unsigned.
 *
 * @param execution topology and memory plan from the plan cache
 * @param barriers barrier-free groups after memory-budget splitting
 * @param peakFrontierBytes largest per-group frontier bytes
 * @param peakScratchBytes largest per-group scratch bytes
 * @param peakOutputBytes largest per-group output bytes
 * @param amortizedReadbackBytes the readback fed into topology selection
 * @param maxGroupWidth widest group, in waves
 */
public record CudaMegakernelFrontierExecutionPlan(MegakernelExecutionPlan execution, MegakernelBarrierPlan barriers,
    long peakFrontierBytes, long peakScratchBytes, long peakOutputBytes, long amortizedReadbackBytes,
    long maxGroupWidth) {}
