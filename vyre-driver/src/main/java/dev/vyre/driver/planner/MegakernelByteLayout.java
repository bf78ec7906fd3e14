package dev.vyre.driver.planner;

/**
 * The byte accounting of one megakernel wave (vyre's {@code MegakernelByteLayout}): per-element
 * graph layout, the wave's frontier, scratch and output, and the approved budget, all unsigned.
 * One value instead of six positional counts, which transpose silently at a call site.
 *
 * @param bytesPerNode resident bytes per graph node
 * @param bytesPerEdge resident bytes per graph edge
 * @param frontierBytes frontier-state bytes of the wave
 * @param scratchBytes base scratch bytes before the topology's multiplier
 * @param outputBytes final output bytes
 * @param budgetBytes caller-approved device-memory budget
 */
public record MegakernelByteLayout(long bytesPerNode, long bytesPerEdge, long frontierBytes, long scratchBytes,
    long outputBytes, long budgetBytes) {

  /** The same layout under another budget. */
  public MegakernelByteLayout withBudget(long budget) {
    return new MegakernelByteLayout(bytesPerNode, bytesPerEdge, frontierBytes, scratchBytes, outputBytes, budget);
  }
}
