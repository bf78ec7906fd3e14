package dev.vyre.cli.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.cli.conform.Json;
import dev.vyre.driver.error.InputException;
import dev.vyre.policy.MegakernelDispatchTopology;
import dev.vyre.policy.MegakernelLaunchRequest;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class PolicyJsonTest {

  private static final String FULL = "{\"queue_len\":1,\"requested_worker_groups\":2,\"max_workgroup_size_x\":3,"
      + "\"max_compute_workgroups_per_dimension\":4,\"max_compute_invocations_per_workgroup\":5,"
      + "\"requested_hit_capacity\":6,\"expected_hits_per_item\":7,\"hot_opcode_count\":8,\"hot_window_count\":9,"
      + "\"requeue_count\":18446744073709551615,\"max_priority_age\":11,\"graph_node_count\":12,"
      + "\"graph_edge_count\":13,\"frontier_density_bps\":65535,\"memory_pressure_bps\":15,"
      + "\"resident_device_bytes\":9223372036854775808,\"device_memory_budget_bytes\":4294967295}";

  @Test
  void requestReadsEveryFieldWithItsRustType() throws IOException {
    assertEquals(new MegakernelLaunchRequest(1, 2, 3, 4, 5, 6, 7, 8, 9, -1, 11, 12, 13, 65535, 15, Long.MIN_VALUE,
        4294967295L), PolicyJson.request(Json.MAPPER.readTree(FULL), "test"));
  }

  @Test
  void outOfRangeAndNonIntegerFieldsAreNamed() throws IOException {
    InputException u32 = assertThrows(InputException.class,
        () -> PolicyJson.request(Json.MAPPER.readTree(FULL.replace("\"queue_len\":1", "\"queue_len\":4294967296")), "f"));
    assertTrue(u32.getMessage().startsWith("f: \"queue_len\" is 4294967296, not a u32."), u32.getMessage());
    assertThrows(InputException.class, () -> PolicyJson.request(
        Json.MAPPER.readTree(FULL.replace("\"requeue_count\":18446744073709551615", "\"requeue_count\":-1")), "f"));
    assertThrows(InputException.class, () -> PolicyJson.request(
        Json.MAPPER.readTree(FULL.replace("\"max_priority_age\":11", "\"max_priority_age\":1.5")), "f"));
    assertThrows(InputException.class, () -> PolicyJson.request(Json.MAPPER.readTree("[1]"), "f"));
  }

  @Test
  void topologyNames() {
    assertEquals(MegakernelDispatchTopology.FusedDense, PolicyJson.topology("FusedDense", "t"));
    assertTrue(assertThrows(InputException.class, () -> PolicyJson.topology("fused_dense", "t")).getMessage()
        .endsWith("Fix: use one of Empty, SparseFrontier, HybridFrontier, DenseFrontier, FusedDense, MemoryConstrained"));
  }
}
