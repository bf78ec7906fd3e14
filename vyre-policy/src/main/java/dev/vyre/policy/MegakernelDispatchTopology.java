package dev.vyre.policy;

/**
 * Scale-aware execution topology selected for one megakernel launch (vyre's
 * {@code ResidentQueueTopology}); constant names are vyre's variant names.
 */
public enum MegakernelDispatchTopology {
  /** Nothing is queued. */
  Empty,
  /** Low frontier density: sparse frontier expansion, no block-wide dense scans. */
  SparseFrontier,
  /** Mid-density frontier: sparse frontier queues combined with dense block tiles. */
  HybridFrontier,
  /** High frontier density: dense block propagation with coalesced scans. */
  DenseFrontier,
  /** High-density graph with enough hot structure to justify fused waves. */
  FusedDense,
  /** Memory pressure is high enough that bounded occupancy beats maximizing active waves. */
  MemoryConstrained
}
