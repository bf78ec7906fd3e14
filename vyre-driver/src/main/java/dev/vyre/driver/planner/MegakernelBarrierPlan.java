package dev.vyre.driver.planner;

import java.util.Arrays;

/**
 * vyre's {@code MegakernelBarrierPlan}: ordered barrier-free groups of waves, with one global
 * barrier between adjacent groups. Waves of a group are independent and may share one
 * cooperative megakernel phase.
 *
 * <p>The groups are stored flat (every wave, group after group, plus the group boundaries) so a
 * plan of a million single-wave groups costs no per-group object. A plan returned by a planner
 * that was given a {@link MegakernelBarrierScratch} is a view of that scratch and stays valid
 * until the scratch plans again; {@link #copy()} detaches it.
 */
public final class MegakernelBarrierPlan {

  private final int[] waves;
  private final int[] groupStarts;
  private final int groupCount;

  /** A plan over {@code waves}, whose group {@code g} is {@code waves[groupStarts[g] .. groupStarts[g + 1])}. */
  MegakernelBarrierPlan(int[] waves, int[] groupStarts, int groupCount) {
    this.waves = waves;
    this.groupStarts = groupStarts;
    this.groupCount = groupCount;
  }

  /** Number of barrier-free groups. */
  public int groupCount() {
    return groupCount;
  }

  /** Global synchronization points between groups: {@code groupCount - 1}, or 0 without groups. */
  public long globalBarriers() {
    return groupCount == 0 ? 0 : groupCount - 1;
  }

  /** Number of waves over all groups. */
  public int waveCount() {
    return groupCount == 0 ? 0 : groupStarts[groupCount];
  }

  /** Number of waves in group {@code group}. */
  public int groupWidth(int group) {
    return groupStarts[group + 1] - groupStarts[group];
  }

  /** The {@code index}-th wave of group {@code group}, in vyre's order. */
  public int wave(int group, int index) {
    return waves[groupStarts[group] + index];
  }

  /** The waves of group {@code group} as a new array. */
  public int[] groupWaves(int group) {
    return Arrays.copyOfRange(waves, groupStarts[group], groupStarts[group + 1]);
  }

  /** A plan that owns its storage, unaffected by later use of the scratch this one came from. */
  public MegakernelBarrierPlan copy() {
    return new MegakernelBarrierPlan(Arrays.copyOf(waves, waveCount()), Arrays.copyOf(groupStarts, groupCount + 1),
        groupCount);
  }

  /** The flat wave order shared with planners that regroup it. */
  int[] waveOrder() {
    return waves;
  }

  /** Position in {@link #waveOrder()} where group {@code group} starts; {@code group == groupCount()} gives the end. */
  int groupStart(int group) {
    return groupStarts[group];
  }

  /** The groups as nested lists, e.g. {@code [[0], [1, 2], [3]]}. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("[");
    for (int group = 0; group < groupCount; group++) {
      text.append(group == 0 ? "" : ", ").append(Arrays.toString(groupWaves(group)));
    }
    return text.append(']').toString();
  }
}
