package dev.vyre.observe.telemetry;

/**
 * Which metric families a runtime IO evidence record actually measured (vyre's runtime evidence
 * coverage, docs/PORTS.md, "Runtime IO evidence"); a family not covered is reported missing rather
 * than read as 0.
 *
 * @param ring ring occupancy and ring decode time were measured
 * @param control control decode time was measured
 * @param copy host copy and avoided-copy bytes were measured
 * @param residency resident device bytes were measured
 */
public record MegakernelRuntimeCoverage(boolean ring, boolean control, boolean copy, boolean residency) {

  /** Every family measured. */
  public static final MegakernelRuntimeCoverage FULL = new MegakernelRuntimeCoverage(true, true, true, true);

  /** Whether {@code family} was measured. */
  public boolean covers(RuntimeMetricFamily family) {
    return switch (family) {
      case Ring -> ring;
      case Control -> control;
      case Copy -> copy;
      case Residency -> residency;
    };
  }
}
