package dev.vyre.driver.planner;

import dev.vyre.driver.Accounting;
import java.util.List;

/**
 * vyre's frontier memory planner ({@code megakernel_frontier.rs}): plans the dependency barriers
 * of frontier waves, splits each barrier group greedily so that its fused waves fit the byte
 * budget left after the resident graph, and reports the peak bytes of any one group.
 */
public final class MegakernelFrontierMemoryPlanner {

  /** The per-wave scratch multiplier of a fused wave (the {@code FusedWave} topology's). */
  private static final long FUSED_SCRATCH_MULTIPLIER = 4;

  private MegakernelFrontierMemoryPlanner() {}

  /**
   * {@code plan_megakernel_frontier_memory_with_scratch}. The barrier groups of the result are a
   * view of {@code scratch}.
   *
   * <p>Each barrier group is split in wave order: a wave joins the current chunk unless the
   * chunk is non-empty and would exceed the group budget, in which case the chunk closes and the
   * wave starts the next one. As in vyre, only a wave that starts a chunk is checked against the
   * budget on its own, so an oversized wave that follows others in its group is accepted alone.
   *
   * @throws MegakernelFrontierMemoryPlanException {@code Barrier} for a bad dependency graph
   *     (first); {@code GroupOverBudget "resident graph bytes"} when the graph alone exceeds the
   *     budget; {@code ByteCountOverflow} or {@code GroupOverBudget "single fused frontier wave
   *     bytes"} while splitting; {@code ByteCountOverflow} while summing peaks
   */
  public static MegakernelFrontierMemoryPlan planMegakernelFrontierMemoryWithScratch(List<MegakernelFrontierWave> waves,
      MegakernelWaveDependencies dependencies, long residentGraphBytes, long budgetBytes, long readbackBytes,
      MegakernelBarrierScratch scratch) {
    MegakernelBarrierPlan barriers;
    try {
      barriers = MegakernelBarrierPlanner.planMegakernelBarriersWithScratch(waves.size(), dependencies, scratch);
    } catch (MegakernelBarrierPlanException e) {
      throw MegakernelFrontierMemoryPlanException.barrier(e);
    }
    if (Long.compareUnsigned(budgetBytes, residentGraphBytes) < 0) {
      throw MegakernelFrontierMemoryPlanException.groupOverBudget(residentGraphBytes, budgetBytes, "resident graph bytes");
    }
    MegakernelBarrierPlan split = splitToBudget(barriers, waves, budgetBytes - residentGraphBytes, scratch);
    long peakFrontier = 0;
    long peakScratch = 0;
    long peakOutput = 0;
    int maxWidth = 0;
    int[] order = split.waveOrder();
    for (int group = 0; group < split.groupCount(); group++) {
      long frontier = 0;
      long scratchBytes = 0;
      long output = 0;
      maxWidth = Math.max(maxWidth, split.groupWidth(group));
      for (int position = split.groupStart(group), end = split.groupStart(group + 1); position < end; position++) {
        MegakernelFrontierWave wave = waves.get(order[position]);
        frontier = add(frontier, wave.frontierBytes(), "frontier wave bytes");
        scratchBytes = add(scratchBytes, wave.scratchBytes(), "scratch wave bytes");
        output = add(output, wave.outputBytes(), "output wave bytes");
      }
      peakFrontier = maxU64(peakFrontier, frontier);
      peakScratch = maxU64(peakScratch, scratchBytes);
      peakOutput = maxU64(peakOutput, output);
    }
    return new MegakernelFrontierMemoryPlan(split, peakFrontier, peakScratch, peakOutput,
        maxU64(readbackBytes, peakOutput), maxWidth);
  }

  /** {@code fused_wave_budget_bytes}: {@code frontier + 4 * scratch + output}, checked. */
  public static long fusedWaveBudgetBytes(MegakernelFrontierWave wave) {
    long fusedScratch = Accounting.checkedMulU64(wave.scratchBytes(), FUSED_SCRATCH_MULTIPLIER,
        "fused wave scratch bytes", MegakernelFrontierMemoryPlanException::byteCountOverflow);
    return add(add(wave.frontierBytes(), fusedScratch, "fused wave bytes"), wave.outputBytes(), "fused wave bytes");
  }

  /** Splits every barrier group, in order, into chunks whose fused bytes fit {@code groupBudget}. */
  private static MegakernelBarrierPlan splitToBudget(MegakernelBarrierPlan barriers, List<MegakernelFrontierWave> waves,
      long groupBudget, MegakernelBarrierScratch scratch) {
    scratch.splitStarts = MegakernelFrontierMemoryPlanException.RESERVATION.reserveInts(scratch.splitStarts,
        waves.size() + 1L, "split barrier groups", MegakernelFrontierMemoryPlanException::storageReserveFailed);
    int[] splitStarts = scratch.splitStarts;
    int[] order = barriers.waveOrder();
    int chunks = 0;
    splitStarts[0] = 0;
    for (int group = 0; group < barriers.groupCount(); group++) {
      int chunkStart = barriers.groupStart(group);
      int groupEnd = barriers.groupStart(group + 1);
      long chunkBytes = 0;
      for (int position = chunkStart; position < groupEnd; position++) {
        long waveBytes = fusedWaveBudgetBytes(waves.get(order[position]));
        long combined = add(chunkBytes, waveBytes, "barrier group fused wave budget bytes");
        if (position == chunkStart && Long.compareUnsigned(waveBytes, groupBudget) > 0) {
          throw MegakernelFrontierMemoryPlanException.groupOverBudget(waveBytes, groupBudget,
              "single fused frontier wave bytes");
        }
        if (position != chunkStart && Long.compareUnsigned(combined, groupBudget) > 0) {
          splitStarts[++chunks] = position;
          chunkStart = position;
          chunkBytes = 0;
        }
        chunkBytes = add(chunkBytes, waveBytes, "barrier group fused wave budget bytes");
      }
      splitStarts[++chunks] = groupEnd;
    }
    return new MegakernelBarrierPlan(order, splitStarts, chunks);
  }

  private static long add(long a, long b, String field) {
    return Accounting.checkedAddU64(a, b, field, MegakernelFrontierMemoryPlanException::byteCountOverflow);
  }

  private static long maxU64(long a, long b) {
    return Long.compareUnsigned(a, b) >= 0 ? a : b;
  }
}
