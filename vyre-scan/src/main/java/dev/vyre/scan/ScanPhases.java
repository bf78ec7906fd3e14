package dev.vyre.scan;

/**
 * Where the thread that drives a {@link ScanJob} spent one run, in nanoseconds: waiting for reads
 * (packs included), waiting for chunks at their lanes' publishers (device copies and publishing on
 * those threads), waiting for DFA_STEP tasks, reading hits back, and publishing tasks (on the
 * publishers' threads where they have their own, else in the job's). The rest of the run's wall
 * time is bookkeeping. A run whose time goes to {@code tasks} is bound by the backend's scanning;
 * one whose time goes elsewhere is bound by the host.
 */
public record ScanPhases(long reads, long copies, long tasks, long hits, long publish) {

  /** One line, each phase as a share of {@code wallNanos}. */
  public String describe(long wallNanos) {
    return String.format("waiting for reads %.0f%%, copies %.0f%%, tasks %.0f%%; reading hits %.0f%%, publishing %.0f%%",
        share(reads, wallNanos), share(copies, wallNanos), share(tasks, wallNanos), share(hits, wallNanos),
        share(publish, wallNanos));
  }

  private static double share(long part, long whole) {
    return whole == 0 ? 0 : 100.0 * part / whole;
  }
}
