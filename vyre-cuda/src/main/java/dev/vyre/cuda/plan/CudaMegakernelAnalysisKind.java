package dev.vyre.cuda.plan;

/**
 * vyre's {@code CudaMegakernelAnalysisKind}: the analysis family a cached megakernel plan serves,
 * one of the built-in families or a caller-owned family named by a stable numeric tag.
 */
public sealed interface CudaMegakernelAnalysisKind {

  /** The built-in families, named as vyre's variants. */
  enum Builtin implements CudaMegakernelAnalysisKind {
    /** Generic dataflow. */
    Dataflow,
    /** Interprocedural, finite, distributive subset problems. */
    Ifds,
    /** Reaching definitions. */
    ReachingDefinitions,
    /** Liveness. */
    Liveness,
    /** Points-to analysis. */
    PointsTo,
    /** A parser front end. */
    ParserFrontend
  }

  /**
   * {@code Custom(u64)}: a caller-owned family.
   *
   * @param tag the family's stable numeric tag, a u64 bit pattern
   */
  record Custom(long tag) implements CudaMegakernelAnalysisKind {}
}
