package dev.vyre.policy;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;

/**
 * The single policy surface for megakernel launch sizing and telemetry-driven routing: an exact
 * port of vyre's {@code ResidentLaunchPolicy}. u32 values are held in a {@code long}, u16 basis
 * points in an {@code int}.
 *
 * <p>{@link #recommend} memoizes in a per-thread cache keyed by (policy, original request);
 * {@link #recommendWithPreviousTopology} never touches it; the evidence calls go through
 * {@link #recommend} with the inferred request, so they cache under that.
 *
 * @param sizing worker counts and grid geometry
 * @param minHitCapacity minimum capacity for sparse-hit results
 * @param hitCapacityMultiplier multiplier for expected hits when deriving capacity
 * @param saturatedWaves waves of queued work that make a queue saturated
 * @param hotOpcodeThreshold hot opcodes that promote to JIT
 * @param hotWindowThreshold hot windows that promote to JIT
 * @param jitQueueLenThreshold queue length that prefers JIT over the interpreter
 * @param priorityAgeThreshold priority age that triggers aging promotions
 * @param sparseFrontierThresholdBps (u16) frontier density at or below which expansion is sparse
 * @param denseFrontierThresholdBps (u16) frontier density at or above which propagation is dense
 * @param memoryPressureThresholdBps (u16) memory pressure at or above which launches are memory-constrained
 * @param fusionEdgeThreshold graph edges before dense hot work may fuse
 * @param scratchBytesPerHit conservative resident scratch bytes per sparse-hit entry
 */
public record MegakernelLaunchPolicy(
    MegakernelSizingPolicy sizing,
    long minHitCapacity,
    long hitCapacityMultiplier,
    long saturatedWaves,
    long hotOpcodeThreshold,
    long hotWindowThreshold,
    long jitQueueLenThreshold,
    long priorityAgeThreshold,
    int sparseFrontierThresholdBps,
    int denseFrontierThresholdBps,
    int memoryPressureThresholdBps,
    long fusionEdgeThreshold,
    long scratchBytesPerHit) {

  private static final MegakernelLaunchPolicy STANDARD = new MegakernelLaunchPolicy(
      MegakernelSizingPolicy.standard(), 1024, 2, 4, 8, 4, 4096, 32, 500, 4_000, 8_500, 65_536, 16);

  public MegakernelLaunchPolicy {
    RangeCheck.u32("min_hit_capacity", minHitCapacity);
    RangeCheck.u32("hit_capacity_multiplier", hitCapacityMultiplier);
    RangeCheck.u32("saturated_waves", saturatedWaves);
    RangeCheck.u32("hot_opcode_threshold", hotOpcodeThreshold);
    RangeCheck.u32("hot_window_threshold", hotWindowThreshold);
    RangeCheck.u32("jit_queue_len_threshold", jitQueueLenThreshold);
    RangeCheck.u32("priority_age_threshold", priorityAgeThreshold);
    RangeCheck.u16("sparse_frontier_threshold_bps", sparseFrontierThresholdBps);
    RangeCheck.u16("dense_frontier_threshold_bps", denseFrontierThresholdBps);
    RangeCheck.u16("memory_pressure_threshold_bps", memoryPressureThresholdBps);
    RangeCheck.u32("fusion_edge_threshold", fusionEdgeThreshold);
    RangeCheck.u32("scratch_bytes_per_hit", scratchBytesPerHit);
  }

  /** The launch policy vyre's megakernel dispatchers use. */
  public static MegakernelLaunchPolicy standard() {
    return STANDARD;
  }

  /** The calling thread's recommendation-cache counters. */
  public static MegakernelLaunchCacheStats launchCacheStats() {
    return LaunchRecommendationCache.current().stats();
  }

  /** Clears the calling thread's recommendation-cache entries and counters. */
  public static void resetLaunchCacheForThread() {
    LaunchRecommendationCache.current().clear();
  }

  /**
   * Geometry, hit capacity, topology and interpreter/JIT route for a request, memoized per thread.
   *
   * @throws BackendException when an adapter limit is zero, a derived value overflows, or the
   *     estimated peak exceeds the device-memory budget ({@code DeviceOutOfMemory})
   */
  public MegakernelLaunchRecommendation recommend(MegakernelLaunchRequest request) {
    LaunchRecommendationCache cache = LaunchRecommendationCache.current();
    LaunchRecommendationCache.Key key = new LaunchRecommendationCache.Key(this, request);
    MegakernelLaunchRecommendation cached = cache.get(key);
    if (cached != null) {
      return cached;
    }
    MegakernelLaunchRecommendation recommendation = compute(request, null);
    cache.insert(key, recommendation);
    return recommendation;
  }

  /**
   * A recommendation that keeps {@code previousTopology} inside a narrow hysteresis band, so
   * borderline frontier-density or memory-pressure telemetry does not keep switching kernel
   * variants. Not cached.
   *
   * @throws BackendException as {@link #recommend}
   */
  public MegakernelLaunchRecommendation recommendWithPreviousTopology(
      MegakernelLaunchRequest request, MegakernelDispatchTopology previousTopology) {
    return compute(request, previousTopology);
  }

  /**
   * A recommendation for the inferred request, with topology evidence for parity benches.
   *
   * @throws BackendException as {@link #recommend}
   */
  public RecommendationWithEvidence<MegakernelTopologyEvidence> recommendWithTopologyEvidence(
      MegakernelLaunchRequest request) {
    MegakernelLaunchRequest effective = inferMissingScaleSignals(request);
    MegakernelLaunchRecommendation recommendation = recommend(effective);
    return new RecommendationWithEvidence<>(recommendation, MegakernelTopologyEvidence.of(effective, recommendation));
  }

  /**
   * A recommendation for the inferred request, with hot opcode/window promotion evidence.
   *
   * @throws BackendException as {@link #recommend}
   */
  public RecommendationWithEvidence<MegakernelPromotionEvidence> recommendWithPromotionEvidence(
      MegakernelLaunchRequest request) {
    MegakernelLaunchRequest effective = inferMissingScaleSignals(request);
    MegakernelLaunchRecommendation recommendation = recommend(effective);
    return new RecommendationWithEvidence<>(
        recommendation, MegakernelPromotionEvidence.of(this, effective, recommendation));
  }

  /**
   * The effective request every policy decision reads: a zero frontier density is inferred from
   * queue length over graph nodes (clamped to 1..10000), and a zero memory pressure from resident
   * bytes over the budget (at most 10000, and possibly still 0).
   */
  public MegakernelLaunchRequest inferMissingScaleSignals(MegakernelLaunchRequest request) {
    boolean inferDensity =
        request.frontierDensityBps() == 0 && request.queueLen() != 0 && request.graphNodeCount() != 0;
    boolean inferPressure = request.memoryPressureBps() == 0 && request.deviceMemoryBudgetBytes() != 0
        && request.residentDeviceBytes() != 0;
    if (!inferDensity && !inferPressure) {
      return request;
    }
    MegakernelLaunchRequest.Builder effective = request.toBuilder();
    if (inferDensity) {
      long activeNodes = Math.min(request.queueLen(), request.graphNodeCount());
      effective.frontierDensityBps(Math.clamp(activeNodes * 10_000 / request.graphNodeCount(), 1, 10_000));
    }
    if (inferPressure) {
      long pressure = Unsigned.mulDivSaturatingU64(
          request.residentDeviceBytes(), 10_000, request.deviceMemoryBudgetBytes());
      effective.memoryPressureBps(Unsigned.compareU64(pressure, 10_000) > 0 ? 10_000 : (int) pressure);
    }
    return effective.build();
  }

  /**
   * The candidate multiplier with the lowest cost (first minimum, IEEE total order) over the
   * common prefix of the two lists, or this policy's multiplier when either is empty.
   */
  public long autotuneHitCapacityMultiplier(long[] candidateMultipliers, double[] costs) {
    if (candidateMultipliers.length == 0 || costs.length == 0) {
      return hitCapacityMultiplier;
    }
    return candidateMultipliers[PolicyAutotune.bestCostIndex(costs, Math.min(candidateMultipliers.length, costs.length))];
  }

  /** The candidate workgroup size with the lowest cost, or {@code currentSize} when either list is empty. */
  public long autotuneWorkgroupSize(long[] candidateSizes, double[] costs, long currentSize) {
    if (candidateSizes.length == 0 || costs.length == 0) {
      return currentSize;
    }
    return candidateSizes[PolicyAutotune.bestCostIndex(costs, Math.min(candidateSizes.length, costs.length))];
  }

  /** The uncached recommendation; {@code previous} is null for a stateless one. */
  MegakernelLaunchRecommendation compute(MegakernelLaunchRequest request, MegakernelDispatchTopology previous) {
    MegakernelLaunchRequest effective = inferMissingScaleSignals(request);
    boolean promoteHotOpcodes = effective.hotOpcodeCount() >= hotOpcodeThreshold;
    boolean promoteHotWindows = effective.hotWindowCount() >= hotWindowThreshold;
    boolean promoteHotWork = promoteHotOpcodes || promoteHotWindows;
    MegakernelDispatchTopology raw = TopologySelection.raw(this, effective, promoteHotWork);
    MegakernelDispatchTopology topology = TopologySelection.stabilize(this, raw, effective, previous, promoteHotWork);
    long workers = TopologyWorkerShedding.workersFor(this, effective, topology);
    MegakernelGridPlan grid = sizing.calculateOptimalGrid(effective.queueLen(), workers,
        effective.maxWorkgroupSizeX(), effective.maxComputeWorkgroupsPerDimension(),
        effective.maxComputeInvocationsPerWorkgroup());
    MegakernelLaunchGeometry geometry = grid.geometry();
    // Two u32 factors cannot overflow u64; the product is an unsigned bit pattern.
    long lanes = geometry.dispatchGridX() * geometry.workgroupSizeX();
    MegakernelQueuePressure pressure =
        MegakernelQueuePressure.classify(effective.queueLen(), lanes, effective.requeueCount(), saturatedWaves);
    long hitCapacity = hitCapacityFor(effective);
    long peakBytes = estimatedPeakDeviceBytes(effective, hitCapacity);
    long budget = effective.deviceMemoryBudgetBytes();
    if (budget != 0 && Unsigned.compareU64(peakBytes, budget) > 0) {
      throw BackendException.deviceOutOfMemory(peakBytes, budget);
    }
    boolean jit = effective.queueLen() >= jitQueueLenThreshold || promoteHotWork
        || topology == MegakernelDispatchTopology.FusedDense;
    boolean agePriorityWork = effective.requeueCount() != 0 || effective.maxPriorityAge() >= priorityAgeThreshold;
    return new MegakernelLaunchRecommendation(geometry, grid.workerGroups(), hitCapacity, pressure,
        jit ? MegakernelExecutionMode.Jit : MegakernelExecutionMode.Interpreter, topology, promoteHotOpcodes,
        promoteHotWindows, agePriorityWork, peakBytes, budget);
  }

  /**
   * The requested capacity verbatim (even below the minimum), else queue × hits × multiplier,
   * where the multiplier drops to 1 under memory pressure (effective pressure, not topology).
   */
  private long hitCapacityFor(MegakernelLaunchRequest request) {
    if (request.requestedHitCapacity() != 0) {
      return request.requestedHitCapacity();
    }
    long expectedHits = Math.max(request.expectedHitsPerItem(), 1);
    long multiplier = request.memoryPressureBps() >= memoryPressureThresholdBps ? 1 : hitCapacityMultiplier;
    long perQueue = Unsigned.checkedMulU32(request.queueLen(), expectedHits);
    long derived = perQueue < 0 ? -1 : Unsigned.checkedMulU32(perQueue, multiplier);
    if (derived < 0) {
      throw BackendException.other("megakernel sparse-hit capacity overflowed u32. "
          + "Fix: lower queue length, expected_hits_per_item, or hit_capacity_multiplier.");
    }
    return Math.max(derived, minHitCapacity);
  }

  private long estimatedPeakDeviceBytes(MegakernelLaunchRequest request, long hitCapacity) {
    // Two u32 factors cannot overflow u64; the product is an unsigned bit pattern.
    long scratchBytes = hitCapacity * scratchBytesPerHit;
    if (Unsigned.addOverflows(request.residentDeviceBytes(), scratchBytes)) {
      throw BackendException.other("megakernel peak resident byte estimate overflowed u64. "
          + "Fix: reduce resident buffers or scratch capacity.");
    }
    return request.residentDeviceBytes() + scratchBytes;
  }
}
