package dev.vyre.driver.planner;

/**
 * vyre's {@code MegakernelBarrierScratch}: caller-owned buffers for repeated barrier and frontier
 * planning (CSR adjacency, indegrees, the ready layers and the group boundaries), so that planning
 * the same or smaller shapes again allocates nothing per wave. Capacities only grow. Not
 * thread-safe: one scratch per planning thread.
 */
public final class MegakernelBarrierScratch {

  private static final int[] EMPTY = new int[0];

  /** Out-degree of each wave; once the CSR offsets exist, the write cursor of each wave's targets. */
  int[] outgoingCounts = EMPTY;
  int[] indegree = EMPTY;
  /** CSR row starts: wave {@code w}'s targets are {@code outgoingTargets[outgoingOffsets[w] .. outgoingOffsets[w + 1])}. */
  int[] outgoingOffsets = EMPTY;
  int[] outgoingTargets = EMPTY;
  /** Every wave in group order: the Kahn ready layers back to back (vyre's ready/next-ready vectors, laid end to end). */
  int[] readyLayers = EMPTY;
  /** Layer boundaries into {@link #readyLayers}. */
  int[] groupStarts = EMPTY;
  /** Boundaries into {@link #readyLayers} after the frontier planner split layers to a byte budget. */
  int[] splitStarts = EMPTY;

  /** An empty scratch that grows on first use. */
  public MegakernelBarrierScratch() {}

  /**
   * {@code try_with_capacity}: a scratch sized for {@code waveCount} waves and
   * {@code dependencyCount} dependencies (unsigned counts).
   *
   * @throws MegakernelBarrierPlanException {@code ByteCountOverflow} when {@code waveCount + 1}
   *     overflows, {@code StorageReserveFailed} when a buffer cannot be allocated
   */
  public static MegakernelBarrierScratch tryWithCapacity(long waveCount, long dependencyCount) {
    MegakernelBarrierScratch scratch = new MegakernelBarrierScratch();
    scratch.reserveShape(waveCount, dependencyCount);
    return scratch;
  }

  /** Waves every CSR buffer can hold without growing: vyre's {@code wave_capacity()}. */
  public long waveCapacity() {
    int offsetWaves = outgoingOffsets.length == 0 ? 0 : outgoingOffsets.length - 1;
    return Math.min(Math.min(outgoingCounts.length, indegree.length), offsetWaves);
  }

  /** Dependencies the CSR target buffer can hold without growing: vyre's {@code dependency_capacity()}. */
  public long dependencyCapacity() {
    return outgoingTargets.length;
  }

  /** Grows every buffer to the shape, in vyre's reservation order so the first failing field matches. */
  void reserveShape(long waveCount, long dependencyCount) {
    if (waveCount == -1L) {
      throw MegakernelBarrierPlanException.byteCountOverflow("barrier scratch wave offsets");
    }
    long offsetCapacity = waveCount + 1;
    ReservationPolicy policy = MegakernelBarrierPlanException.RESERVATION;
    ReservationPolicy.Failure failure = MegakernelBarrierPlanException::storageReserveFailed;
    outgoingCounts = policy.reserveInts(outgoingCounts, waveCount, "outgoing counts", failure);
    indegree = policy.reserveInts(indegree, waveCount, "indegree", failure);
    outgoingOffsets = policy.reserveInts(outgoingOffsets, offsetCapacity, "outgoing offsets", failure);
    outgoingTargets = policy.reserveInts(outgoingTargets, dependencyCount, "outgoing targets", failure);
    readyLayers = policy.reserveInts(readyLayers, waveCount, "ready wave layer", failure);
    groupStarts = policy.reserveInts(groupStarts, offsetCapacity, "barrier groups", failure);
  }
}
