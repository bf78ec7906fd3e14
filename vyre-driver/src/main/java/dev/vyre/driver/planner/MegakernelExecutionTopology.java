package dev.vyre.driver.planner;

/**
 * vyre's {@code MegakernelExecutionTopology}: how the device executes a dataflow wave. The
 * constants carry vyre's variant names, which the conformance JSON and the display texts use.
 */
public enum MegakernelExecutionTopology {
  /** Ultra-low density: one warp owns the sparse active nodes. */
  WarpSparseFrontier,
  /** Low density: queue-like work distribution. */
  SparseFrontier,
  /** Very high density: a block owns coalesced bitset lanes. */
  BlockDenseFrontier,
  /** Dense bitset-style propagation with coalesced scans. */
  DenseFrontier,
  /** Mixed sparse/dense execution in the transition band. */
  HybridFrontier,
  /** Adjacent waves fused into one launch when launch and readback pressure dominate. */
  FusedWave
}
