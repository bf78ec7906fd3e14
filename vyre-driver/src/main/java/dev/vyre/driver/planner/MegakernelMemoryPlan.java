package dev.vyre.driver.planner;

/**
 * vyre's {@code MegakernelMemoryPlan}: the device-memory envelope of one topology, in unsigned
 * bytes, with {@code requiredBytes = graph + frontier + scratch + output}.
 *
 * @param graphBytes graph-layout bytes retained on device
 * @param frontierBytes frontier-state bytes
 * @param scratchBytes scratch bytes after the topology's scaling
 * @param outputBytes final output/readback bytes
 * @param requiredBytes total peak bytes
 * @param budgetBytes caller-approved budget
 * @param memoryPressureBps required/budget in basis points, clamped to 10000
 */
public record MegakernelMemoryPlan(long graphBytes, long frontierBytes, long scratchBytes, long outputBytes,
    long requiredBytes, long budgetBytes, long memoryPressureBps) {}
