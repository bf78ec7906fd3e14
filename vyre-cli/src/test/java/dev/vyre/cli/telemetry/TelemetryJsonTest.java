package dev.vyre.cli.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.observe.telemetry.MegakernelRuntimeCounters;
import dev.vyre.observe.telemetry.RingStatus;
import dev.vyre.policy.PriorityRequeueAccounting;
import org.junit.jupiter.api.Test;

class TelemetryJsonTest {

  @Test
  void statusIsAVariantNameOrAnExternallyTaggedUnknown() {
    assertEquals("\"WaitIo\"", TelemetryJson.status(RingStatus.of(4)).toString());
    assertEquals("{\"Unknown\":8}", TelemetryJson.status(RingStatus.of(8)).toString());
  }

  @Test
  void u64FieldsArePrintedUnsigned() {
    assertEquals("{\"requeue_count\":18446744073709551615,\"aged_promotions\":0,\"max_priority_age\":0}",
        TelemetryJson.priorityAccounting(new PriorityRequeueAccounting(-1L, 0, 0)).toString());
    assertEquals("{\"total_slots\":1,\"queue_depth\":0,\"gpu_idle_slots\":1,\"gpu_idle_ppm\":1000000,"
        + "\"frontier_density_bps\":0,\"occupancy_proxy_bps\":0,\"drained_slots\":0,\"unreclaimed_done_slots\":0,"
        + "\"tenant_fairness_total\":0,\"tenant_fairness_skew\":0,\"priority_fairness_total\":0,\"requeue_slots\":0,"
        + "\"fault_slots\":0}", TelemetryJson.runtimeCounters(
            new MegakernelRuntimeCounters(1, 0, 1, 1_000_000, 0, 0, 0, 0, 0, 0, 0, 0, 0)).toString());
  }
}
