package dev.vyre.cli.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.InputException;
import dev.vyre.policy.MegakernelDispatchTopology;
import dev.vyre.policy.MegakernelGridPlan;
import dev.vyre.policy.MegakernelLaunchGeometry;
import dev.vyre.policy.MegakernelLaunchRecommendation;
import dev.vyre.policy.MegakernelLaunchRequest;
import dev.vyre.policy.MegakernelPromotionEvidence;
import dev.vyre.policy.MegakernelTopologyEvidence;
import dev.vyre.policy.PriorityDrainRecommendation;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The JSON shapes of the launch policy (docs/CONFORMANCE.md, "Launch policy" and "Other policy
 * functions"): Rust field names in declaration order, enums as variant names. Shared by
 * {@code vyre conform} and {@code vyre policy}; every reader names its {@code source} (the input
 * file, or {@code conform}) in its errors.
 */
public final class PolicyJson {

  /** The 17 request fields, in Rust declaration order. */
  public static final List<String> REQUEST_FIELDS = List.of("queue_len", "requested_worker_groups",
      "max_workgroup_size_x", "max_compute_workgroups_per_dimension", "max_compute_invocations_per_workgroup",
      "requested_hit_capacity", "expected_hits_per_item", "hot_opcode_count", "hot_window_count", "requeue_count",
      "max_priority_age", "graph_node_count", "graph_edge_count", "frontier_density_bps", "memory_pressure_bps",
      "resident_device_bytes", "device_memory_budget_bytes");

  private static final BigInteger U16 = BigInteger.valueOf(Unsigned.U16_MAX);
  private static final BigInteger U32 = BigInteger.valueOf(Unsigned.U32_MAX);
  private static final BigInteger U64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private PolicyJson() {}

  /** A {@code ResidentLaunchRequest} object; all 17 fields are required. */
  public static MegakernelLaunchRequest request(JsonNode node, String source) {
    JsonNode object = requireObject(node, "the launch request", source);
    return new MegakernelLaunchRequest(u32(object, "queue_len", source),
        u32(object, "requested_worker_groups", source), u32(object, "max_workgroup_size_x", source),
        u32(object, "max_compute_workgroups_per_dimension", source),
        u32(object, "max_compute_invocations_per_workgroup", source), u32(object, "requested_hit_capacity", source),
        u32(object, "expected_hits_per_item", source), u32(object, "hot_opcode_count", source),
        u32(object, "hot_window_count", source), u64(object, "requeue_count", source),
        u32(object, "max_priority_age", source), u32(object, "graph_node_count", source),
        u32(object, "graph_edge_count", source), (int) unsigned(object, "frontier_density_bps", U16, "u16", source),
        (int) unsigned(object, "memory_pressure_bps", U16, "u16", source), u64(object, "resident_device_bytes", source),
        u64(object, "device_memory_budget_bytes", source));
  }

  /** A topology by its variant name. */
  public static MegakernelDispatchTopology topology(String name, String source) {
    for (MegakernelDispatchTopology topology : MegakernelDispatchTopology.values()) {
      if (topology.name().equals(name)) {
        return topology;
      }
    }
    throw InputException.of(source, "unknown topology \"" + name + "\"", "use one of "
        + Arrays.stream(MegakernelDispatchTopology.values()).map(Enum::name).collect(Collectors.joining(", ")));
  }

  /** An object field, required. */
  public static JsonNode requireObject(JsonNode node, String what, String source) {
    if (node == null || !node.isObject()) {
      throw InputException.of(source, what + " is not a JSON object", "pass " + what + " as {\"field\": value, ...}");
    }
    return node;
  }

  /** A required u32 field. */
  public static long u32(JsonNode object, String field, String source) {
    return unsigned(object, field, U32, "u32", source);
  }

  /** A required u64 field, as its bit pattern. */
  public static long u64(JsonNode object, String field, String source) {
    return unsigned(object, field, U64, "u64", source);
  }

  private static long unsigned(JsonNode object, String field, BigInteger max, String type, String source) {
    JsonNode node = object.get(field);
    if (node == null || node.isNull()) {
      throw InputException.of(source, "missing field \"" + field + "\"", "add \"" + field + "\" (" + type + ")");
    }
    if (!node.isIntegralNumber() || node.bigIntegerValue().signum() < 0 || node.bigIntegerValue().compareTo(max) > 0) {
      throw InputException.of(source, "\"" + field + "\" is " + node + ", not a " + type,
          "pass an integer in 0.." + max);
    }
    return node.bigIntegerValue().longValue();
  }

  /** A request as the object {@link #request(JsonNode, String)} reads: all 17 fields, in declaration order. */
  public static ObjectNode request(MegakernelLaunchRequest request) {
    ObjectNode json = Json.object();
    json.put("queue_len", request.queueLen());
    json.put("requested_worker_groups", request.requestedWorkerGroups());
    json.put("max_workgroup_size_x", request.maxWorkgroupSizeX());
    json.put("max_compute_workgroups_per_dimension", request.maxComputeWorkgroupsPerDimension());
    json.put("max_compute_invocations_per_workgroup", request.maxComputeInvocationsPerWorkgroup());
    json.put("requested_hit_capacity", request.requestedHitCapacity());
    json.put("expected_hits_per_item", request.expectedHitsPerItem());
    json.put("hot_opcode_count", request.hotOpcodeCount());
    json.put("hot_window_count", request.hotWindowCount());
    json.set("requeue_count", Json.u64Node(request.requeueCount()));
    json.put("max_priority_age", request.maxPriorityAge());
    json.put("graph_node_count", request.graphNodeCount());
    json.put("graph_edge_count", request.graphEdgeCount());
    json.put("frontier_density_bps", request.frontierDensityBps());
    json.put("memory_pressure_bps", request.memoryPressureBps());
    json.set("resident_device_bytes", Json.u64Node(request.residentDeviceBytes()));
    json.set("device_memory_budget_bytes", Json.u64Node(request.deviceMemoryBudgetBytes()));
    return json;
  }

  public static ObjectNode geometry(MegakernelLaunchGeometry geometry) {
    ObjectNode json = Json.object();
    json.put("workgroup_size_x", geometry.workgroupSizeX());
    json.put("slot_count", geometry.slotCount());
    ArrayNode grid = json.putArray("dispatch_grid");
    for (long extent : geometry.dispatchGrid()) {
      grid.add(extent);
    }
    return json;
  }

  public static ObjectNode gridPlan(MegakernelGridPlan plan) {
    ObjectNode json = Json.object();
    json.set("geometry", geometry(plan.geometry()));
    json.put("worker_groups", plan.workerGroups());
    return json;
  }

  public static ObjectNode recommendation(MegakernelLaunchRecommendation recommendation) {
    ObjectNode json = Json.object();
    json.set("geometry", geometry(recommendation.geometry()));
    json.put("worker_groups", recommendation.workerGroups());
    json.put("hit_capacity", recommendation.hitCapacity());
    json.put("pressure", recommendation.pressure().name());
    json.put("execution_mode", recommendation.executionMode().name());
    json.put("topology", recommendation.topology().name());
    json.put("promote_hot_opcodes", recommendation.promoteHotOpcodes());
    json.put("promote_hot_windows", recommendation.promoteHotWindows());
    json.put("age_priority_work", recommendation.agePriorityWork());
    json.set("estimated_peak_device_bytes", Json.u64Node(recommendation.estimatedPeakDeviceBytes()));
    json.set("device_memory_budget_bytes", Json.u64Node(recommendation.deviceMemoryBudgetBytes()));
    return json;
  }

  public static ObjectNode topologyEvidence(MegakernelTopologyEvidence evidence) {
    ObjectNode json = Json.object();
    json.put("schema_version", evidence.schemaVersion());
    json.put("queue_pressure", evidence.queuePressure().name());
    json.put("frontier_density_bps", evidence.frontierDensityBps());
    json.put("semiring_frontier_density_bps", evidence.semiringFrontierDensityBps());
    json.put("selected_topology", evidence.selectedTopology().name());
    json.put("graphblas_switch_class", evidence.graphblasSwitchClass().name());
    json.set("resident_device_bytes", Json.u64Node(evidence.residentDeviceBytes()));
    json.set("estimated_peak_device_bytes", Json.u64Node(evidence.estimatedPeakDeviceBytes()));
    json.put("output_parity_required", evidence.outputParityRequired());
    json.put("is_complete", evidence.isComplete());
    return json;
  }

  public static ObjectNode promotionEvidence(MegakernelPromotionEvidence evidence) {
    ObjectNode json = Json.object();
    json.put("schema_version", evidence.schemaVersion());
    json.put("queue_len", evidence.queueLen());
    json.put("jit_queue_len_threshold", evidence.jitQueueLenThreshold());
    json.put("hot_opcode_count", evidence.hotOpcodeCount());
    json.put("hot_opcode_threshold", evidence.hotOpcodeThreshold());
    json.put("hot_window_count", evidence.hotWindowCount());
    json.put("hot_window_threshold", evidence.hotWindowThreshold());
    json.put("execution_mode", evidence.executionMode().name());
    json.put("promote_hot_opcodes", evidence.promoteHotOpcodes());
    json.put("promote_hot_windows", evidence.promoteHotWindows());
    json.put("promotion_route", evidence.promotionRoute().name());
    json.put("fused_descriptor_window_required", evidence.fusedDescriptorWindowRequired());
    json.put("output_parity_required", evidence.outputParityRequired());
    json.put("is_complete", evidence.isComplete());
    return json;
  }

  public static ObjectNode drainRecommendation(PriorityDrainRecommendation drain) {
    ObjectNode json = Json.object();
    json.put("should_drain", drain.shouldDrain());
    json.put("reason", drain.reason().name());
    json.set("requeue_count", Json.u64Node(drain.requeueCount()));
    json.set("aged_promotions", Json.u64Node(drain.agedPromotions()));
    json.put("max_priority_age", drain.maxPriorityAge());
    json.set("requeue_counter_headroom", Json.u64Node(drain.requeueCounterHeadroom()));
    json.set("aged_promotion_counter_headroom", Json.u64Node(drain.agedPromotionCounterHeadroom()));
    json.put("fix", drain.fix());
    return json;
  }
}
