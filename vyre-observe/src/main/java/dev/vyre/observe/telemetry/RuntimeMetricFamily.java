package dev.vyre.observe.telemetry;

/**
 * A family of metrics that runtime IO evidence can carry (docs/PORTS.md, "Runtime IO evidence"), in
 * the order {@link MegakernelRuntimeEvidence#missingMetricFamilies()} reports them.
 */
public enum RuntimeMetricFamily {
  /** Ring occupancy and the ring decode time. */
  Ring("ring"),
  /** The control decode time. */
  Control("control"),
  /** Host copy bytes and the bytes residency avoided copying. */
  Copy("copy"),
  /** Resident device bytes. */
  Residency("residency");

  private final String label;

  RuntimeMetricFamily(String label) {
    this.label = label;
  }

  /** vyre's stable label, e.g. {@code residency}. */
  public String label() {
    return label;
  }
}
