package dev.vyre.driver.planner;

/**
 * vyre's {@code MegakernelFrontierMemoryPlan}: the barrier groups after splitting them to the
 * byte budget, the peak bytes of any one group, and the readback pressure to feed topology
 * selection. Byte counts are unsigned.
 *
 * @param barriers barrier-free groups after memory-budget splitting
 * @param peakFrontierBytes largest per-group sum of frontier bytes
 * @param peakScratchBytes largest per-group sum of scratch bytes
 * @param peakOutputBytes largest per-group sum of output bytes
 * @param amortizedReadbackBytes {@code max(readback telemetry, peakOutputBytes)}
 * @param maxGroupWidth widest group, in waves
 */
public record MegakernelFrontierMemoryPlan(MegakernelBarrierPlan barriers, long peakFrontierBytes,
    long peakScratchBytes, long peakOutputBytes, long amortizedReadbackBytes, long maxGroupWidth) {}
