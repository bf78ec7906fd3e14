package dev.vyre.cuda.plan;

/**
 * vyre's {@code CudaMegakernelAnalysisKind}: the analysis family a cached megakernel plan serves,
 * one of the built-in families or a caller-owned family named by a stable numeric tag.
 */
public sealed interface CudaMegakernelAnalysisKind {

  /** The built-in families, named as vyre's variants. */
  enum Builtin implements CudaMegakernelAnalysisKind {
    Dataflow, Ifds, ReachingDefinitions, Liveness, PointsTo, ParserFrontend
  }

  /** {@code Custom(u64)}: a caller-owned family. */
  record Custom(long tag) implements CudaMegakernelAnalysisKind {}
}
