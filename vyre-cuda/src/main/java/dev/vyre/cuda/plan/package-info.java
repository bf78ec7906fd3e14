/**
 * Exact ports of vyre's CUDA megakernel planning: the plan cache
 * ({@link dev.vyre.cuda.plan.CudaMegakernelPlanCache}, keyed by
 * {@link dev.vyre.cuda.plan.CudaMegakernelPlanCacheKey}), frontier execution planning through it
 * ({@link dev.vyre.cuda.plan.CudaMegakernelBarrierPlanner}), and the fusion-pressure scheduler
 * ({@link dev.vyre.cuda.plan.CudaMegakernelScheduler}). Pure Java, no device needed (docs/PORTS.md,
 * "CUDA plan cache").
 */
package dev.vyre.cuda.plan;
