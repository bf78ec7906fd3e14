package dev.vyre.driver.planner;

/**
 * vyre's {@code MegakernelFrontierWave}: the memory envelope of one frontier wave, in unsigned
 * bytes.
 *
 * @param frontierBytes resident frontier bytes touched by the wave
 * @param scratchBytes temporary scratch bytes before topology scaling
 * @param outputBytes output bytes the wave produces
 */
public record MegakernelFrontierWave(long frontierBytes, long scratchBytes, long outputBytes) {}
