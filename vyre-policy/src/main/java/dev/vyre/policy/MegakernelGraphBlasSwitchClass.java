package dev.vyre.policy;

/** The GraphBLAS-style switch class a dispatch topology falls into, as topology evidence reports it. */
public enum MegakernelGraphBlasSwitchClass {
  /** No work queued. */
  Empty("empty"),
  /** A sparse frontier: push-style traversal. */
  Sparse("sparse"),
  /** Between the sparse and dense thresholds. */
  Hybrid("hybrid"),
  /** A dense frontier, fused or not: pull-style traversal. */
  Dense("dense"),
  /** Memory pressure decides, whatever the density. */
  MemoryConstrained("memory_constrained");

  private final String label;

  MegakernelGraphBlasSwitchClass(String label) {
    this.label = label;
  }

  /** vyre's stable label, e.g. {@code memory_constrained}. */
  public String label() {
    return label;
  }

  /** The class of a topology: dense and fused-dense both switch as dense. */
  public static MegakernelGraphBlasSwitchClass of(MegakernelDispatchTopology topology) {
    return switch (topology) {
      case Empty -> Empty;
      case SparseFrontier -> Sparse;
      case HybridFrontier -> Hybrid;
      case DenseFrontier, FusedDense -> Dense;
      case MemoryConstrained -> MemoryConstrained;
    };
  }
}
