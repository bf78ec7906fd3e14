package dev.vyre.policy;

/**
 * Inputs for one launch-policy recommendation: queue shape, adapter limits and telemetry. u32
 * values are held in a {@code long} (checked on construction), u16 basis points in an {@code int}
 * (checked, not clamped to 10000), u64 values as {@code long} bit patterns.
 *
 * @param queueLen logical ring slots or work items queued for this launch
 * @param requestedWorkerGroups caller's worker-group ceiling; zero derives it from occupancy
 * @param maxWorkgroupSizeX adapter maximum workgroup size in x
 * @param maxComputeWorkgroupsPerDimension adapter maximum compute workgroups per dimension
 * @param maxComputeInvocationsPerWorkgroup adapter maximum invocations per workgroup
 * @param requestedHitCapacity caller's sparse-hit capacity; zero derives it from the queue
 * @param expectedHitsPerItem expected sparse hits per queued item when deriving hit capacity
 * @param hotOpcodeCount opcodes observed hot enough for promotion
 * @param hotWindowCount ticketed route windows observed hot enough for promotion
 * @param requeueCount (u64) slots requeued by priority scheduling since the last recommendation
 * @param maxPriorityAge largest priority age observed since the last recommendation
 * @param graphNodeCount nodes in the resident dependency graph; zero means no graph telemetry
 * @param graphEdgeCount edges in the resident dependency graph; zero means no graph telemetry
 * @param frontierDensityBps (u16) active frontier density relative to graph nodes; zero infers it
 * @param memoryPressureBps (u16) device-memory pressure relative to the budget; zero infers it
 * @param residentDeviceBytes (u64) device bytes this dispatch family already holds
 * @param deviceMemoryBudgetBytes (u64) hard device-memory budget; zero means unbounded
 */
public record MegakernelLaunchRequest(
    long queueLen,
    long requestedWorkerGroups,
    long maxWorkgroupSizeX,
    long maxComputeWorkgroupsPerDimension,
    long maxComputeInvocationsPerWorkgroup,
    long requestedHitCapacity,
    long expectedHitsPerItem,
    long hotOpcodeCount,
    long hotWindowCount,
    long requeueCount,
    long maxPriorityAge,
    long graphNodeCount,
    long graphEdgeCount,
    int frontierDensityBps,
    int memoryPressureBps,
    long residentDeviceBytes,
    long deviceMemoryBudgetBytes) {

  public MegakernelLaunchRequest {
    RangeCheck.u32("queue_len", queueLen);
    RangeCheck.u32("requested_worker_groups", requestedWorkerGroups);
    RangeCheck.u32("max_workgroup_size_x", maxWorkgroupSizeX);
    RangeCheck.u32("max_compute_workgroups_per_dimension", maxComputeWorkgroupsPerDimension);
    RangeCheck.u32("max_compute_invocations_per_workgroup", maxComputeInvocationsPerWorkgroup);
    RangeCheck.u32("requested_hit_capacity", requestedHitCapacity);
    RangeCheck.u32("expected_hits_per_item", expectedHitsPerItem);
    RangeCheck.u32("hot_opcode_count", hotOpcodeCount);
    RangeCheck.u32("hot_window_count", hotWindowCount);
    RangeCheck.u32("max_priority_age", maxPriorityAge);
    RangeCheck.u32("graph_node_count", graphNodeCount);
    RangeCheck.u32("graph_edge_count", graphEdgeCount);
    RangeCheck.u16("frontier_density_bps", frontierDensityBps);
    RangeCheck.u16("memory_pressure_bps", memoryPressureBps);
  }

  /**
   * Every field, as the record's own hash does, but written out: the generated hash of 17
   * components took about 10 ns, two thirds of a recommendation-cache hit; this one takes about 5.
   */
  @Override
  public int hashCode() {
    long hash = queueLen;
    hash = hash * 31 + requestedWorkerGroups;
    hash = hash * 31 + maxWorkgroupSizeX;
    hash = hash * 31 + maxComputeWorkgroupsPerDimension;
    hash = hash * 31 + maxComputeInvocationsPerWorkgroup;
    hash = hash * 31 + requestedHitCapacity;
    hash = hash * 31 + expectedHitsPerItem;
    hash = hash * 31 + hotOpcodeCount;
    hash = hash * 31 + hotWindowCount;
    hash = hash * 31 + requeueCount;
    hash = hash * 31 + maxPriorityAge;
    hash = hash * 31 + graphNodeCount;
    hash = hash * 31 + graphEdgeCount;
    hash = hash * 31 + frontierDensityBps;
    hash = hash * 31 + memoryPressureBps;
    hash = hash * 31 + residentDeviceBytes;
    hash = hash * 31 + deviceMemoryBudgetBytes;
    return Long.hashCode(hash);
  }

  /**
   * A direct-dispatch request with conservative defaults. Like vyre, it copies {@code workers} into
   * the workgroups-per-dimension limit and {@code maxX} into the invocations limit, so
   * {@code direct(q, 0, x)} always fails the workgroups-per-dimension check.
   */
  public static MegakernelLaunchRequest direct(long queueLen, long workers, long maxX) {
    return new MegakernelLaunchRequest(queueLen, workers, maxX, workers, maxX, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  /** A builder starting from {@code direct(queueLen, workers, maxX)}. */
  public static Builder directBuilder(long queueLen, long workers, long maxX) {
    return direct(queueLen, workers, maxX).toBuilder();
  }

  /** A builder holding this request's values. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Copies a request with some fields changed; fields are checked when {@link #build()} runs. */
  public static final class Builder {
    private long queueLen;
    private long requestedWorkerGroups;
    private long maxWorkgroupSizeX;
    private long maxComputeWorkgroupsPerDimension;
    private long maxComputeInvocationsPerWorkgroup;
    private long requestedHitCapacity;
    private long expectedHitsPerItem;
    private long hotOpcodeCount;
    private long hotWindowCount;
    private long requeueCount;
    private long maxPriorityAge;
    private long graphNodeCount;
    private long graphEdgeCount;
    private int frontierDensityBps;
    private int memoryPressureBps;
    private long residentDeviceBytes;
    private long deviceMemoryBudgetBytes;

    private Builder(MegakernelLaunchRequest from) {
      queueLen = from.queueLen;
      requestedWorkerGroups = from.requestedWorkerGroups;
      maxWorkgroupSizeX = from.maxWorkgroupSizeX;
      maxComputeWorkgroupsPerDimension = from.maxComputeWorkgroupsPerDimension;
      maxComputeInvocationsPerWorkgroup = from.maxComputeInvocationsPerWorkgroup;
      requestedHitCapacity = from.requestedHitCapacity;
      expectedHitsPerItem = from.expectedHitsPerItem;
      hotOpcodeCount = from.hotOpcodeCount;
      hotWindowCount = from.hotWindowCount;
      requeueCount = from.requeueCount;
      maxPriorityAge = from.maxPriorityAge;
      graphNodeCount = from.graphNodeCount;
      graphEdgeCount = from.graphEdgeCount;
      frontierDensityBps = from.frontierDensityBps;
      memoryPressureBps = from.memoryPressureBps;
      residentDeviceBytes = from.residentDeviceBytes;
      deviceMemoryBudgetBytes = from.deviceMemoryBudgetBytes;
    }

    public Builder queueLen(long value) {
      queueLen = value;
      return this;
    }

    public Builder requestedWorkerGroups(long value) {
      requestedWorkerGroups = value;
      return this;
    }

    public Builder maxWorkgroupSizeX(long value) {
      maxWorkgroupSizeX = value;
      return this;
    }

    public Builder maxComputeWorkgroupsPerDimension(long value) {
      maxComputeWorkgroupsPerDimension = value;
      return this;
    }

    public Builder maxComputeInvocationsPerWorkgroup(long value) {
      maxComputeInvocationsPerWorkgroup = value;
      return this;
    }

    public Builder requestedHitCapacity(long value) {
      requestedHitCapacity = value;
      return this;
    }

    public Builder expectedHitsPerItem(long value) {
      expectedHitsPerItem = value;
      return this;
    }

    public Builder hotOpcodeCount(long value) {
      hotOpcodeCount = value;
      return this;
    }

    public Builder hotWindowCount(long value) {
      hotWindowCount = value;
      return this;
    }

    public Builder requeueCount(long value) {
      requeueCount = value;
      return this;
    }

    public Builder maxPriorityAge(long value) {
      maxPriorityAge = value;
      return this;
    }

    public Builder graphNodeCount(long value) {
      graphNodeCount = value;
      return this;
    }

    public Builder graphEdgeCount(long value) {
      graphEdgeCount = value;
      return this;
    }

    public Builder frontierDensityBps(int value) {
      frontierDensityBps = value;
      return this;
    }

    public Builder memoryPressureBps(int value) {
      memoryPressureBps = value;
      return this;
    }

    public Builder residentDeviceBytes(long value) {
      residentDeviceBytes = value;
      return this;
    }

    public Builder deviceMemoryBudgetBytes(long value) {
      deviceMemoryBudgetBytes = value;
      return this;
    }

    public MegakernelLaunchRequest build() {
      return new MegakernelLaunchRequest(queueLen, requestedWorkerGroups, maxWorkgroupSizeX,
          maxComputeWorkgroupsPerDimension, maxComputeInvocationsPerWorkgroup, requestedHitCapacity,
          expectedHitsPerItem, hotOpcodeCount, hotWindowCount, requeueCount, maxPriorityAge, graphNodeCount,
          graphEdgeCount, frontierDensityBps, memoryPressureBps, residentDeviceBytes, deviceMemoryBudgetBytes);
    }
  }
}
