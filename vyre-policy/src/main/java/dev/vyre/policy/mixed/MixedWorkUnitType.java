package dev.vyre.policy.mixed;

/**
 * What one unit of mixed work does (vyre's {@code MixedWorkUnitType}, docs/PORTS.md, "Mixed work").
 * Each type belongs to exactly one queue class; a plan that files it under another is refused.
 */
public enum MixedWorkUnitType {
  ScanChunk(11, MixedWorkQueueClass.Scan, "scan_chunk"),
  ScanVerifier(12, MixedWorkQueueClass.Scan, "scan_verifier"),
  GraphFrontier(21, MixedWorkQueueClass.Graph, "graph_frontier"),
  GraphCompaction(22, MixedWorkQueueClass.Graph, "graph_compaction"),
  ParserShard(31, MixedWorkQueueClass.Parser, "parser_shard"),
  ParserChangedRange(32, MixedWorkQueueClass.Parser, "parser_changed_range"),
  FlowRelationDelta(41, MixedWorkQueueClass.Flow, "flow_relation_delta"),
  FlowFixpointStep(42, MixedWorkQueueClass.Flow, "flow_fixpoint_step"),
  DrainSentinel(51, MixedWorkQueueClass.Control, "drain_sentinel");

  private final int tag;
  private final MixedWorkQueueClass queueClass;
  private final String label;

  MixedWorkUnitType(int tag, MixedWorkQueueClass queueClass, String label) {
    this.tag = tag;
    this.queueClass = queueClass;
    this.label = label;
  }

  /** The stable tag (u32). */
  public int tag() {
    return tag;
  }

  /** The only queue class a unit of this type may be filed under. */
  public MixedWorkQueueClass queueClass() {
    return queueClass;
  }

  /** vyre's stable label, e.g. {@code flow_fixpoint_step}. */
  public String label() {
    return label;
  }
}
