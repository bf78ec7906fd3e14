package dev.vyre.policy;

/**
 * Why a launch was or was not promoted to a fused JIT route: the counts and thresholds behind the
 * decision and the route taken. u32 values are held in a {@code long}.
 *
 * @param schemaVersion evidence schema, {@link #SCHEMA_VERSION}
 * @param queueLen effective queue length
 * @param jitQueueLenThreshold the policy's queue-length JIT threshold
 * @param hotOpcodeCount effective hot opcode count
 * @param hotOpcodeThreshold the policy's hot opcode threshold
 * @param hotWindowCount effective hot window count
 * @param hotWindowThreshold the policy's hot window threshold
 * @param executionMode the recommendation's execution mode
 * @param promoteHotOpcodes the recommendation's opcode promotion
 * @param promoteHotWindows the recommendation's window promotion
 * @param promotionRoute the route those imply
 * @param fusedDescriptorWindowRequired true exactly when hot windows are promoted
 * @param outputParityRequired always true: fused and interpreted routes must agree
 */
public record MegakernelPromotionEvidence(
    int schemaVersion,
    long queueLen,
    long jitQueueLenThreshold,
    long hotOpcodeCount,
    long hotOpcodeThreshold,
    long hotWindowCount,
    long hotWindowThreshold,
    MegakernelExecutionMode executionMode,
    boolean promoteHotOpcodes,
    boolean promoteHotWindows,
    MegakernelPromotionRoute promotionRoute,
    boolean fusedDescriptorWindowRequired,
    boolean outputParityRequired) {

  /** vyre's {@code HOT_WINDOW_PROMOTION_EVIDENCE_SCHEMA_VERSION}. */
  public static final int SCHEMA_VERSION = 1;

  /** Evidence for a recommendation made by {@code policy} from the effective request {@code effective}. */
  static MegakernelPromotionEvidence of(
      MegakernelLaunchPolicy policy, MegakernelLaunchRequest effective, MegakernelLaunchRecommendation recommendation) {
    return new MegakernelPromotionEvidence(SCHEMA_VERSION, effective.queueLen(), policy.jitQueueLenThreshold(),
        effective.hotOpcodeCount(), policy.hotOpcodeThreshold(), effective.hotWindowCount(),
        policy.hotWindowThreshold(), recommendation.executionMode(), recommendation.promoteHotOpcodes(),
        recommendation.promoteHotWindows(),
        MegakernelPromotionRoute.of(recommendation.executionMode(), recommendation.promoteHotOpcodes(),
            recommendation.promoteHotWindows()),
        recommendation.promoteHotWindows(), true);
  }

  /** True when the schema is current, all thresholds are non-zero and the flags are consistent. */
  public boolean isComplete() {
    return schemaVersion == SCHEMA_VERSION && jitQueueLenThreshold != 0 && hotOpcodeThreshold != 0
        && hotWindowThreshold != 0 && fusedDescriptorWindowRequired == promoteHotWindows && outputParityRequired;
  }
}
