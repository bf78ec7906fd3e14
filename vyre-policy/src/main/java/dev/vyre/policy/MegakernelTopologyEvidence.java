package dev.vyre.policy;

/**
 * Why a launch got its topology, for parity benches: the effective (inferred) densities, the
 * selected topology and its switch class, and the memory estimate.
 *
 * @param schemaVersion evidence schema, {@link #SCHEMA_VERSION}
 * @param queuePressure the recommendation's queue pressure
 * @param frontierDensityBps (u16) effective frontier density
 * @param semiringFrontierDensityBps (u16) the same density, as the semiring path sees it
 * @param selectedTopology the recommendation's topology
 * @param graphblasSwitchClass the topology's switch class
 * @param residentDeviceBytes (u64) effective resident device bytes
 * @param estimatedPeakDeviceBytes (u64) the recommendation's peak estimate
 * @param outputParityRequired always true: fused and interpreted routes must agree
 */
public record MegakernelTopologyEvidence(
    int schemaVersion,
    MegakernelQueuePressure queuePressure,
    int frontierDensityBps,
    int semiringFrontierDensityBps,
    MegakernelDispatchTopology selectedTopology,
    MegakernelGraphBlasSwitchClass graphblasSwitchClass,
    long residentDeviceBytes,
    long estimatedPeakDeviceBytes,
    boolean outputParityRequired) {

  /** vyre's {@code TOPOLOGY_EVIDENCE_SCHEMA_VERSION}. */
  public static final int SCHEMA_VERSION = 1;

  /** Evidence for a recommendation made from the effective request {@code effective}. */
  static MegakernelTopologyEvidence of(MegakernelLaunchRequest effective, MegakernelLaunchRecommendation recommendation) {
    return new MegakernelTopologyEvidence(SCHEMA_VERSION, recommendation.pressure(), effective.frontierDensityBps(),
        effective.frontierDensityBps(), recommendation.topology(),
        MegakernelGraphBlasSwitchClass.of(recommendation.topology()), effective.residentDeviceBytes(),
        recommendation.estimatedPeakDeviceBytes(), true);
  }

  /** True when the schema is current, both densities are at most 10000 bps and parity is required. */
  public boolean isComplete() {
    return schemaVersion == SCHEMA_VERSION && frontierDensityBps <= 10_000
        && semiringFrontierDensityBps <= 10_000 && outputParityRequired;
  }
}
