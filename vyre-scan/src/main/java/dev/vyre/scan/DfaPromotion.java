package dev.vyre.scan;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.NotImplementedException;
import dev.vyre.policy.MegakernelLaunchPolicy;
import dev.vyre.policy.MegakernelLaunchRequest;
import dev.vyre.policy.MegakernelPromotionEvidence;
import dev.vyre.policy.MegakernelPromotionRoute;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.dfa.PromotedDfaLayout;
import java.lang.foreign.MemorySegment;

/**
 * A scan's own promotion decision, at its start (docs/POLICY.md, "Promotion"): a scan that knows how many
 * DFA_STEP tasks it will publish on its table asks the launch policy with that count as the hot opcode
 * count, and promotes the table when the route says so, before its first task; the promotion loop decides
 * for work whose size is not known in advance.
 */
final class DfaPromotion {

  private DfaPromotion() {}

  /** Promotes {@code table}, written at {@code handle}, when {@code tasks} make it hot; says what was done and why. */
  static String promoteIfHot(Megakernel kernel, int handle, DfaTable table, long tasks) {
    if (!kernel.promotedDfaIsFaster()) {
      return "not promoted: the " + kernel.backendName() + " backend has no faster promoted DFA_STEP";
    }
    long count = Math.min(tasks, Unsigned.U32_MAX);
    MegakernelPromotionEvidence evidence = MegakernelLaunchPolicy.standard().recommendWithPromotionEvidence(
        MegakernelLaunchRequest.directBuilder(count, kernel.workerGroups(), kernel.lanesPerWorkerGroup())
            .hotOpcodeCount(count).build()).evidence();
    MegakernelPromotionRoute route = evidence.promotionRoute();
    String why = "(" + tasks + " tasks on the table, threshold " + evidence.hotOpcodeThreshold() + ", route "
        + route.label() + ")";
    if (route != MegakernelPromotionRoute.OpcodeJit && route != MegakernelPromotionRoute.OpcodeAndWindowJit) {
      return "not promoted " + why;
    }
    PromotedDfaLayout.Compaction compaction = PromotedDfaLayout.compact(table.segment());
    if (compaction instanceof PromotedDfaLayout.NotPromotable(var refusal, String reason)) {
      return "not promoted: " + refusal.name().toLowerCase() + ": " + reason + " " + why;
    }
    MemorySegment compact = ((PromotedDfaLayout.Compact) compaction).table();
    try {
      kernel.promoteDfaTable(handle, compact);
    } catch (NotImplementedException e) {
      return "not promoted: " + e.getMessage();
    }
    return "promoted, " + compact.byteSize() + " bytes " + why;
  }
}
