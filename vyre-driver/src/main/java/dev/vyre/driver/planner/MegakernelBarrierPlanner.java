package dev.vyre.driver.planner;

import java.util.Arrays;

/**
 * vyre's barrier planner ({@code megakernel_barrier.rs}): turns a DAG of waves into the minimum
 * number of global-barrier layers (Kahn layering over a CSR adjacency). Waves inside one layer
 * are independent and can be fused into one cooperative megakernel phase.
 *
 * <p>The order is vyre's, bit for bit: the first group lists the source waves in ascending
 * index order; each later group lists waves in the order they became ready, by the position of
 * the releasing wave in the previous group and then by the input order of its edges.
 */
public final class MegakernelBarrierPlanner {

  private MegakernelBarrierPlanner() {}

  /** {@code plan_megakernel_barriers}: plans with a fresh scratch, so the result owns its storage. */
  public static MegakernelBarrierPlan planMegakernelBarriers(long waveCount, MegakernelWaveDependencies dependencies) {
    MegakernelBarrierScratch scratch = MegakernelBarrierScratch.tryWithCapacity(waveCount, dependencies.size());
    return planMegakernelBarriersWithScratch(waveCount, dependencies, scratch);
  }

  /**
   * {@code plan_megakernel_barriers_with_scratch}: plans {@code waveCount} waves (an unsigned
   * count) with caller-owned storage; after the scratch has grown to the shape, nothing is
   * allocated per wave. The plan is a view of the scratch.
   *
   * @throws MegakernelBarrierPlanException with vyre's precedence: {@code ByteCountOverflow} or
   *     {@code StorageReserveFailed} while sizing the scratch; then, walking the dependencies in
   *     input order, {@code InvalidWave} (an endpoint {@code >= waveCount}, checked first) or
   *     {@code SelfDependency} for the first bad edge; then {@code Cycle} with the number of waves
   *     never scheduled
   */
  public static MegakernelBarrierPlan planMegakernelBarriersWithScratch(long waveCount,
      MegakernelWaveDependencies dependencies, MegakernelBarrierScratch scratch) {
    scratch.reserveShape(waveCount, dependencies.size());
    if (waveCount == 0) {
      if (!dependencies.isEmpty()) {
        throw MegakernelBarrierPlanException.invalidWave(0, dependencies.before(0), dependencies.after(0));
      }
      return new MegakernelBarrierPlan(scratch.readyLayers, scratch.groupStarts, 0);
    }
    // reserveShape allocated arrays of waveCount entries, so it fits an int.
    int waves = (int) waveCount;
    if (dependencies.isEmpty()) {
      return oneIndependentGroup(waves, scratch);
    }
    countDegrees(waves, dependencies, scratch);
    buildAdjacency(waves, dependencies, scratch);
    int groups = layer(waves, scratch);
    return new MegakernelBarrierPlan(scratch.readyLayers, scratch.groupStarts, groups);
  }

  private static MegakernelBarrierPlan oneIndependentGroup(int waves, MegakernelBarrierScratch scratch) {
    int[] order = scratch.readyLayers;
    for (int wave = 0; wave < waves; wave++) {
      order[wave] = wave;
    }
    scratch.groupStarts[0] = 0;
    scratch.groupStarts[1] = waves;
    return new MegakernelBarrierPlan(order, scratch.groupStarts, 1);
  }

  /** Validates every edge in input order and counts out- and in-degrees. */
  private static void countDegrees(int waves, MegakernelWaveDependencies dependencies, MegakernelBarrierScratch scratch) {
    int[] outgoing = scratch.outgoingCounts;
    int[] indegree = scratch.indegree;
    Arrays.fill(outgoing, 0, waves, 0);
    Arrays.fill(indegree, 0, waves, 0);
    int edges = dependencies.size();
    for (int edge = 0; edge < edges; edge++) {
      long before = dependencies.before(edge);
      long after = dependencies.after(edge);
      if (Long.compareUnsigned(before, waves) >= 0 || Long.compareUnsigned(after, waves) >= 0) {
        throw MegakernelBarrierPlanException.invalidWave(waves, before, after);
      }
      if (before == after) {
        throw MegakernelBarrierPlanException.selfDependency(before);
      }
      outgoing[(int) before] = increment(outgoing[(int) before], "outgoing dependency count");
      indegree[(int) after] = increment(indegree[(int) after], "incoming dependency count");
    }
  }

  /** Builds the CSR rows; each wave's targets keep their input order. */
  private static void buildAdjacency(int waves, MegakernelWaveDependencies dependencies, MegakernelBarrierScratch scratch) {
    int[] cursor = scratch.outgoingCounts;
    int[] offsets = scratch.outgoingOffsets;
    int[] targets = scratch.outgoingTargets;
    offsets[0] = 0;
    for (int wave = 0; wave < waves; wave++) {
      offsets[wave + 1] = checkedAdd(offsets[wave], cursor[wave], "outgoing dependency offsets");
    }
    // The counts are no longer needed: reuse them as each row's write cursor.
    System.arraycopy(offsets, 0, cursor, 0, waves);
    int edges = dependencies.size();
    for (int edge = 0; edge < edges; edge++) {
      int before = (int) dependencies.before(edge);
      int slot = cursor[before];
      targets[slot] = (int) dependencies.after(edge);
      cursor[before] = increment(slot, "outgoing target cursor");
    }
  }

  /**
   * Kahn layering into {@code readyLayers}: layer 0 is every source wave in index order; a wave
   * joins the next layer when its last incoming edge is released. Returns the layer count.
   */
  private static int layer(int waves, MegakernelBarrierScratch scratch) {
    int[] indegree = scratch.indegree;
    int[] offsets = scratch.outgoingOffsets;
    int[] targets = scratch.outgoingTargets;
    int[] order = scratch.readyLayers;
    int[] starts = scratch.groupStarts;
    int scheduled = 0;
    for (int wave = 0; wave < waves; wave++) {
      if (indegree[wave] == 0) {
        order[scheduled++] = wave;
      }
    }
    int groups = 0;
    starts[0] = 0;
    int layerStart = 0;
    while (layerStart < scheduled) {
      int layerEnd = scheduled;
      for (int position = layerStart; position < layerEnd; position++) {
        int wave = order[position];
        for (int edge = offsets[wave], end = offsets[wave + 1]; edge < end; edge++) {
          int target = targets[edge];
          if (--indegree[target] == 0) {
            order[scheduled++] = target;
          }
        }
      }
      starts[++groups] = layerEnd;
      layerStart = layerEnd;
    }
    if (scheduled != waves) {
      throw MegakernelBarrierPlanException.cycle(waves - scheduled);
    }
    return groups;
  }

  private static int increment(int count, String field) {
    if (count == Integer.MAX_VALUE) {
      throw MegakernelBarrierPlanException.byteCountOverflow(field);
    }
    return count + 1;
  }

  private static int checkedAdd(int a, int b, String field) {
    int sum = a + b;
    if (((a ^ sum) & (b ^ sum)) < 0) {
      throw MegakernelBarrierPlanException.byteCountOverflow(field);
    }
    return sum;
  }
}
