package dev.vyre.policy.mixed;

/**
 * The queue a unit of mixed work is drained from (vyre's {@code MixedWorkQueueClass},
 * docs/PORTS.md, "Mixed work"). The tag is folded into the evidence digest, so it is part of the
 * format.
 */
public enum MixedWorkQueueClass {
  Scan(1, "scan"),
  Graph(2, "graph"),
  Parser(3, "parser"),
  Flow(4, "flow"),
  Control(5, "control");

  private final int tag;
  private final String label;

  MixedWorkQueueClass(int tag, String label) {
    this.tag = tag;
    this.label = label;
  }

  /** The stable tag (u32). */
  public int tag() {
    return tag;
  }

  /** vyre's stable label, e.g. {@code parser}. */
  public String label() {
    return label;
  }
}
