package dev.vyre.scan;

/**
 * Where the thread that drives a {@link ScanJob} spent one run, in nanoseconds: waiting for reads
 * (packs included), waiting for chunks at their lanes' publishers (device copies and publishing on
 * those threads), waiting for DFA_STEP tasks, reading hits back, and publishing tasks (on the
 * publishers' threads where they have their own, else in the job's), of which {@code roomWait}
 * waiting for ring room because every slot was in flight ({@code Megakernel.RoomWait}: retiring
 * meanwhile included, {@code roomIdle} of it idle). The rest of the run's wall time is bookkeeping.
 * A run whose time goes to {@code tasks}, or to publishing that waits for room, is bound by the
 * backend's scanning; one whose time goes elsewhere is bound by the host.
 */
public record ScanPhases(long reads, long copies, long tasks, long hits, long publish, long roomWait, long roomIdle) {

  /** One line, each phase as a share of {@code wallNanos}. */
  public String describe(long wallNanos) {
    return String.format("waiting for reads %.0f%%, copies %.0f%%, tasks %.0f%%; reading hits %.0f%%, publishing %.0f%%"
            + " (waiting for ring room %.0f%%, %.0f%% of it idle)", share(reads, wallNanos), share(copies, wallNanos),
        share(tasks, wallNanos), share(hits, wallNanos), share(publish, wallNanos), share(roomWait, wallNanos),
        share(roomIdle, roomWait));
  }

  private static double share(long part, long whole) {
    return whole == 0 ? 0 : 100.0 * part / whole;
  }
}
