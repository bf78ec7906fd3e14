package dev.vyre.policy;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.ProtocolException;
import dev.vyre.runtime.wire.ControlLayout;
import java.lang.foreign.MemorySegment;

/**
 * The host-side helpers of vyre's priority-aware slot scan (docs/PORTS.md, "Priority partitions and
 * scan"): how many probes a lane makes over one priority partition, how many lanes take part, the
 * resulting probe budget, where a lane starts, and the fairness checks on the control counters.
 * Values are u32 held in a {@code long}.
 *
 * <p>Neither of our kernels uses these: the CUDA and reference schedulers replace vyre's scan with
 * doorbells and claim cursors (docs/DESIGN.md, "A live persistent kernel"). They are kept as exact
 * ports for tools and conformance checks that budget or reproduce vyre's scan.
 */
public final class PriorityScanProbe {

  /** A priority level's claim counter (words 136..140) below this is fair. */
  public static final long PRIORITY_FAIRNESS_THRESHOLD = 16;

  private PriorityScanProbe() {}

  /** Probes one lane makes over a partition of {@code len} slots: {@code ceil(len / max(width, 1))}, 0 when empty. */
  public static long probeCount(long len, long width) {
    RangeCheck.u32("len", len);
    RangeCheck.u32("width", width);
    return len == 0 ? 0 : Unsigned.ceilDivU32(len, Math.max(width, 1));
  }

  /** Lanes that probe a partition of {@code len} slots: {@code min(len, max(width, 1))}. */
  public static long activeLanes(long len, long width) {
    RangeCheck.u32("len", len);
    RangeCheck.u32("width", width);
    return Math.min(len, Math.max(width, 1));
  }

  /**
   * Probes all lanes make over the partition: {@code activeLanes * probeCount}. The product can
   * pass u32::MAX (by less than {@code width}), so it is returned whole as a u64.
   */
  public static long probeBudget(long len, long width) {
    return activeLanes(len, width) * probeCount(len, width);
  }

  /**
   * The slot where {@code lane} starts probing the partition {@code [start, end)}:
   * {@code start + lane mod max(end - start, 1)}. Subtraction and addition wrap in u32 as the
   * kernel's do, so a reversed partition gives a length near 2^32 instead of an error.
   */
  public static long policyOffsetStart(long start, long end, long lane) {
    RangeCheck.u32("start", start);
    RangeCheck.u32("end", end);
    RangeCheck.u32("lane", lane);
    long len = (end - start) & Unsigned.U32_MAX;
    return (start + lane % Math.max(len, 1)) & Unsigned.U32_MAX;
  }

  /**
   * vyre's {@code check_tenant_fairness}: whether tenant {@code tenant}'s claim counter, word
   * {@code 64 + tenant mod 32}, is below 64. The tenant id is a u32 bit pattern; ids 32 apart share a counter.
   *
   * @throws ProtocolException when the control buffer is misaligned or does not hold that word
   */
  public static boolean checkTenantFairness(MemorySegment control, int tenant) {
    long word = ControlLayout.TENANT_FAIRNESS_BASE + Integer.remainderUnsigned(tenant, ControlLayout.TENANT_FAIRNESS_SLOTS);
    return ControlLayout.tryReadWord(control, word) < ControlLayout.TENANT_FAIRNESS_THRESHOLD;
  }

  /**
   * vyre's {@code check_priority_fairness}: whether priority level {@code level}'s claim counter,
   * word {@code 136 + level}, is below 16.
   *
   * @throws InputException when {@code level} is not 0..4
   * @throws ProtocolException when the control buffer is misaligned or does not hold that word
   */
  public static boolean checkPriorityFairness(MemorySegment control, int level) {
    if (level < 0 || level >= ControlLayout.PRIORITY_LEVELS) {
      throw InputException.of("priority scan", "priority level " + level + " is outside 0..4",
          "pass a level from 0 (CRITICAL) to 4 (IDLE); words past 140 are not priority counters");
    }
    return ControlLayout.tryReadWord(control, ControlLayout.PRIORITY_FAIRNESS_BASE + level) < PRIORITY_FAIRNESS_THRESHOLD;
  }
}
