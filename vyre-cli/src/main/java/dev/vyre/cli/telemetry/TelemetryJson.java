package dev.vyre.cli.telemetry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.observe.telemetry.ControlSnapshot;
import dev.vyre.observe.telemetry.MegakernelRuntimeCounters;
import dev.vyre.observe.telemetry.MegakernelWatchdogSnapshot;
import dev.vyre.observe.telemetry.RingOccupancy;
import dev.vyre.observe.telemetry.RingSlotSnapshot;
import dev.vyre.observe.telemetry.RingStatus;
import dev.vyre.observe.telemetry.RingTelemetry;
import dev.vyre.observe.telemetry.WindowTelemetry;
import dev.vyre.policy.PriorityRequeueAccounting;

/**
 * The JSON shapes of telemetry (docs/CONFORMANCE.md, "Telemetry"): Rust field names in declaration
 * order, {@code RingStatus} as a variant name or {@code {"Unknown":raw}}. Shared by
 * {@code vyre conform} and {@code vyre telemetry decode --json}.
 */
public final class TelemetryJson {

  private TelemetryJson() {}

  /** {@code {"telemetry":..., "runtime_counters":..., "priority_accounting":...}}: the output of {@code telemetry_decode}. */
  public static ObjectNode decoded(RingTelemetry telemetry) {
    ObjectNode json = Json.object();
    json.set("telemetry", telemetry(telemetry));
    json.set("runtime_counters", runtimeCounters(telemetry.runtimeCounters()));
    json.set("priority_accounting", priorityAccounting(telemetry.priorityAccounting()));
    return json;
  }

  public static ObjectNode telemetry(RingTelemetry telemetry) {
    ObjectNode json = Json.object();
    json.set("control", control(telemetry.control()));
    json.set("occupancy", occupancy(telemetry.occupancy()));
    ArrayNode slots = json.putArray("slots");
    for (RingSlotSnapshot slot : telemetry.slots()) {
      slots.add(slot(slot));
    }
    ArrayNode windows = json.putArray("windows");
    for (WindowTelemetry window : telemetry.windows()) {
      windows.add(window(window));
    }
    return json;
  }

  public static ObjectNode control(ControlSnapshot control) {
    ObjectNode json = Json.object();
    json.put("shutdown", control.shutdown());
    json.put("done_count", control.doneCount());
    json.put("epoch", control.epoch());
    ArrayNode metrics = json.putArray("metrics");
    for (ControlSnapshot.Metric metric : control.metrics()) {
      metrics.addArray().add(metric.index()).add(metric.count());
    }
    ArrayNode tenants = json.putArray("tenant_fairness");
    for (long count : control.tenantFairness()) {
      tenants.add(count);
    }
    ArrayNode priorities = json.putArray("priority_fairness");
    for (long count : control.priorityFairness()) {
      priorities.add(count);
    }
    return json;
  }

  public static ObjectNode occupancy(RingOccupancy occupancy) {
    ObjectNode json = Json.object();
    json.put("empty", occupancy.empty());
    json.put("published", occupancy.published());
    json.put("claimed", occupancy.claimed());
    json.put("done", occupancy.done());
    json.put("wait_io", occupancy.waitIo());
    json.put("yield_count", occupancy.yieldCount());
    json.put("requeue", occupancy.requeue());
    json.put("fault", occupancy.fault());
    json.put("unknown", occupancy.unknown());
    return json;
  }

  /** {@code "Published"}, or {@code {"Unknown":raw}} as serde tags a data-carrying variant. */
  public static JsonNode status(RingStatus status) {
    if (!status.isUnknown()) {
      return JsonNodeFactory.instance.textNode(status.variantName());
    }
    ObjectNode json = Json.object();
    json.put("Unknown", Integer.toUnsignedLong(status.raw()));
    return json;
  }

  public static ObjectNode slot(RingSlotSnapshot slot) {
    ObjectNode json = Json.object();
    json.put("slot_idx", slot.slotIdx());
    json.set("status", status(slot.status()));
    json.put("tenant_id", slot.tenantId());
    json.put("opcode", slot.opcode());
    json.putArray("args_prefix").add(slot.arg0()).add(slot.arg1()).add(slot.arg2());
    return json;
  }

  public static ObjectNode window(WindowTelemetry window) {
    ObjectNode json = Json.object();
    json.put("ticket", window.ticket());
    json.put("tenant_id", window.tenantId());
    json.put("opcode", window.opcode());
    json.put("required_slots", window.requiredSlots());
    json.put("lookahead_slots", window.lookaheadSlots());
    json.put("published", window.published());
    json.put("claimed", window.claimed());
    json.put("done", window.done());
    json.put("wait_io", window.waitIo());
    json.put("yield_count", window.yieldCount());
    json.put("requeue", window.requeue());
    json.put("fault", window.fault());
    return json;
  }

  /** vyre's {@code ResidentRuntimeCounters}. */
  public static ObjectNode runtimeCounters(MegakernelRuntimeCounters counters) {
    ObjectNode json = Json.object();
    json.put("total_slots", counters.totalSlots());
    json.put("queue_depth", counters.queueDepth());
    json.put("gpu_idle_slots", counters.gpuIdleSlots());
    json.put("gpu_idle_ppm", counters.gpuIdlePpm());
    json.put("frontier_density_bps", counters.frontierDensityBps());
    json.put("occupancy_proxy_bps", counters.occupancyProxyBps());
    json.put("drained_slots", counters.drainedSlots());
    json.put("unreclaimed_done_slots", counters.unreclaimedDoneSlots());
    json.set("tenant_fairness_total", Json.u64Node(counters.tenantFairnessTotal()));
    json.put("tenant_fairness_skew", counters.tenantFairnessSkew());
    json.set("priority_fairness_total", Json.u64Node(counters.priorityFairnessTotal()));
    json.put("requeue_slots", counters.requeueSlots());
    json.put("fault_slots", counters.faultSlots());
    return json;
  }

  public static ObjectNode priorityAccounting(PriorityRequeueAccounting accounting) {
    ObjectNode json = Json.object();
    json.set("requeue_count", Json.u64Node(accounting.requeueCount()));
    json.set("aged_promotions", Json.u64Node(accounting.agedPromotions()));
    json.put("max_priority_age", accounting.maxPriorityAge());
    return json;
  }

  public static ObjectNode watchdog(MegakernelWatchdogSnapshot watchdog) {
    ObjectNode json = Json.object();
    json.put("done_delta", watchdog.doneDelta());
    json.put("queue_depth", watchdog.queueDepth());
    json.put("fault_slots", watchdog.faultSlots());
    json.put("requeue_slots", watchdog.requeueSlots());
    json.put("gpu_idle_ppm", watchdog.gpuIdlePpm());
    json.put("suspected_stall", watchdog.suspectedStall());
    return json;
  }
}
