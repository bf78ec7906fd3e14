package dev.vyre.cli.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.ConformRegistry;
import dev.vyre.cli.conform.ConformRunner;
import dev.vyre.cli.conform.Json;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The lines of docs/CONFORMANCE.md, "Telemetry", through {@link ConformRunner}, checked against vyre's telemetry vectors. */
class TelemetryConformModuleTest {

  private static final ConformRunner RUNNER = runner();
  private static final String DIRECT_4096 = "{\"queue_len\":4096,\"requested_worker_groups\":64,\"max_workgroup_size_x\":256,"
      + "\"max_compute_workgroups_per_dimension\":64,\"max_compute_invocations_per_workgroup\":256,"
      + "\"requested_hit_capacity\":0,\"expected_hits_per_item\":1,\"hot_opcode_count\":0,\"hot_window_count\":0,"
      + "\"requeue_count\":%s,\"max_priority_age\":0,\"graph_node_count\":0,\"graph_edge_count\":0,"
      + "\"frontier_density_bps\":0,\"memory_pressure_bps\":0,\"resident_device_bytes\":0,\"device_memory_budget_bytes\":0}";

  private static ConformRunner runner() {
    ConformRegistry registry = new ConformRegistry();
    new TelemetryConformModule().register(registry);
    return new ConformRunner(registry);
  }

  private static JsonNode answer(String line) throws IOException {
    return Json.MAPPER.readTree(RUNNER.answer(line));
  }

  private static JsonNode json(String text) throws IOException {
    return Json.MAPPER.readTree(text);
  }

  private static byte[] control(int done) {
    byte[] control = ControlLayout.encode(false, 7, 0);
    Words.set(MemorySegment.ofArray(control), ControlLayout.DONE_COUNT, done);
    return control;
  }

  private static void slot(byte[] ring, int slot, int status, int opcode, int tenant, int... args) {
    MemorySegment segment = MemorySegment.ofArray(ring);
    Words.set(segment, SlotLayout.statusWord(slot), status);
    Words.set(segment, SlotLayout.slotBase(slot) + SlotLayout.OPCODE_WORD, opcode);
    Words.set(segment, SlotLayout.slotBase(slot) + SlotLayout.TENANT_WORD, tenant);
    for (int i = 0; i < args.length; i++) {
      Words.set(segment, SlotLayout.argWord(slot, i), args[i]);
    }
  }

  @Test
  void decodeGivesTelemetryCountersAndAccounting() throws IOException {
    byte[] control = control(7);
    MemorySegment words = MemorySegment.ofArray(control);
    Words.set(words, ControlLayout.TENANT_FAIRNESS_BASE, 3);
    Words.set(words, ControlLayout.TENANT_FAIRNESS_BASE + 1, 9);
    Words.set(words, ControlLayout.PRIORITY_FAIRNESS_BASE, 5);
    Words.set(words, ControlLayout.metricWord(Opcodes.ATOMIC_ADD), 4);
    byte[] ring = new byte[4 * 64];
    slot(ring, 0, SlotLayout.STATUS_REQUEUE, Opcodes.NOP, 0);
    slot(ring, 1, SlotLayout.STATUS_DONE, Opcodes.NOP, 0);
    slot(ring, 2, SlotLayout.STATUS_PUBLISHED, Opcodes.ATOMIC_ADD, 11, 1, 2, 3, 4);
    JsonNode out = answer("{\"fn\":\"telemetry_decode\",\"control_bytes\":\"" + Json.hex(control) + "\",\"ring_bytes\":\""
        + Json.hex(ring) + "\"}");
    assertEquals(json("{\"total_slots\":4,\"queue_depth\":2,\"gpu_idle_slots\":1,\"gpu_idle_ppm\":250000,"
        + "\"frontier_density_bps\":5000,\"occupancy_proxy_bps\":7500,\"drained_slots\":7,\"unreclaimed_done_slots\":1,"
        + "\"tenant_fairness_total\":12,\"tenant_fairness_skew\":6,\"priority_fairness_total\":5,\"requeue_slots\":1,"
        + "\"fault_slots\":0}"), out.get("runtime_counters"));
    assertEquals(json("{\"requeue_count\":1,\"aged_promotions\":0,\"max_priority_age\":0}"), out.get("priority_accounting"));
    JsonNode telemetry = out.get("telemetry");
    assertEquals(json("{\"shutdown\":false,\"done_count\":7,\"epoch\":0,\"metrics\":[[2,4]],"
        + "\"tenant_fairness\":[3,9,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"
        + "\"priority_fairness\":[5,0,0,0,0]}"), telemetry.get("control"));
    assertEquals(json("{\"empty\":1,\"published\":1,\"claimed\":0,\"done\":1,\"wait_io\":0,\"yield_count\":0,"
        + "\"requeue\":1,\"fault\":0,\"unknown\":0}"), telemetry.get("occupancy"));
    assertEquals(json("{\"slot_idx\":2,\"status\":\"Published\",\"tenant_id\":11,\"opcode\":2,\"args_prefix\":[1,2,3]}"),
        telemetry.get("slots").get(2));
    assertEquals(json("[]"), telemetry.get("windows"));
  }

  @Test
  void decodeGroupsWindowsAndTagsUnknownStatuses() throws IOException {
    byte[] ring = new byte[3 * 64];
    slot(ring, 0, SlotLayout.STATUS_PUBLISHED, 0xF101, 3, 7, 0, 42);
    slot(ring, 1, SlotLayout.STATUS_PUBLISHED, 0xF101, 3, 7, 1, 99);
    slot(ring, 2, 0xFFFF_FFFF, 0xF101, 3, 7, 0, 123);
    JsonNode out = answer("{\"fn\":\"telemetry_decode\",\"control_bytes\":\"" + Json.hex(control(0)) + "\",\"ring_bytes\":\""
        + Json.hex(ring) + "\",\"window_opcodes\":[61697,61697]}");
    assertEquals(json("[{\"ticket\":7,\"tenant_id\":3,\"opcode\":61697,\"required_slots\":2,\"lookahead_slots\":1,"
        + "\"published\":2,\"claimed\":0,\"done\":0,\"wait_io\":0,\"yield_count\":0,\"requeue\":0,\"fault\":0}]"),
        out.get("telemetry").get("windows"));
    assertEquals(json("{\"Unknown\":4294967295}"), out.get("telemetry").get("slots").get(2).get("status"));
    assertEquals(1, out.get("telemetry").get("occupancy").get("unknown").asInt());
  }

  @Test
  void malformedBuffersArePipelineBackendErrors() throws IOException {
    JsonNode control = answer("{\"fn\":\"telemetry_decode\",\"control_bytes\":\"00000000\",\"ring_bytes\":\"00\"}").get("error");
    assertEquals("PipelineError", control.get("type").asText());
    assertEquals("Backend", control.get("variant").asText());
    assertEquals("megakernel control snapshot has 4 bytes, expected at least 640 and 4-byte alignment. "
        + "Fix: capture the full control buffer.", control.get("message").asText());
    assertEquals("backend error: " + control.get("message").asText(), control.get("display").asText());
    JsonNode ring = answer("{\"fn\":\"telemetry_decode\",\"control_bytes\":\"" + Json.hex(control(0))
        + "\",\"ring_bytes\":\"00\"}").get("error");
    assertEquals("megakernel ring snapshot has 1 bytes, not a multiple of slot size 64. Fix: capture whole ring slots.",
        ring.get("message").asText());
  }

  @Test
  void badInputIsAnInputError() throws IOException {
    assertEquals("InputError", answer("{\"fn\":\"telemetry_decode\",\"control_bytes\":\"0\",\"ring_bytes\":\"\"}")
        .get("error").get("type").asText());
    assertEquals("InputError", answer("{\"fn\":\"telemetry_decode\",\"control_bytes\":\"\",\"ring_bytes\":\"\","
        + "\"window_opcodes\":[4294967296]}").get("error").get("type").asText());
    assertEquals("InputError", answer("{\"fn\":\"telemetry_decode\",\"control_bytes\":\"\",\"ring_bytes\":\"\","
        + "\"window_opcodes\":7}").get("error").get("type").asText());
  }

  private static String health(byte[] previousControl, byte[] previousRing, byte[] control, byte[] ring) {
    return "{\"fn\":\"telemetry_health_since\",\"previous_control_bytes\":\"" + Json.hex(previousControl)
        + "\",\"previous_ring_bytes\":\"" + Json.hex(previousRing) + "\",\"control_bytes\":\"" + Json.hex(control)
        + "\",\"ring_bytes\":\"" + Json.hex(ring) + "\"}";
  }

  @Test
  void healthSinceFlagsAStallAndClearsOnProgress() throws IOException {
    byte[] ring = new byte[2 * 64];
    slot(ring, 0, SlotLayout.STATUS_PUBLISHED, Opcodes.NOP, 0);
    assertEquals(json("{\"done_delta\":0,\"queue_depth\":1,\"fault_slots\":0,\"requeue_slots\":0,\"gpu_idle_ppm\":500000,"
        + "\"suspected_stall\":true}"), answer(health(control(7), new byte[128], control(7), ring)));
    assertEquals(json("{\"done_delta\":2,\"queue_depth\":1,\"fault_slots\":0,\"requeue_slots\":0,\"gpu_idle_ppm\":500000,"
        + "\"suspected_stall\":false}"), answer(health(control(7), new byte[128], control(9), ring)));
    JsonNode error = answer(health(control(9), new byte[128], control(7), ring)).get("error");
    assertEquals("Backend", error.get("variant").asText());
    assertTrue(error.get("message").asText().startsWith("megakernel done counter moved backwards from 9 to 7."));
  }

  @Test
  void recommendLaunchFillsTheRequestFromTelemetry() throws IOException {
    byte[] control = control(0);
    for (int opcode = 0; opcode < 8; opcode++) {
      Words.set(MemorySegment.ofArray(control), ControlLayout.metricWord(opcode), 1);
    }
    byte[] ring = new byte[4 * 64];
    slot(ring, 0, SlotLayout.STATUS_REQUEUE, Opcodes.NOP, 0);
    String line = "{\"fn\":\"telemetry_recommend_launch\",\"control_bytes\":\"" + Json.hex(control) + "\",\"ring_bytes\":\""
        + Json.hex(ring) + "\",\"window_opcodes\":[],\"request\":" + DIRECT_4096.formatted("0") + "}";
    assertEquals(json("{\"geometry\":{\"workgroup_size_x\":64,\"slot_count\":4096,\"dispatch_grid\":[64,1,1]},"
        + "\"worker_groups\":64,\"hit_capacity\":8192,\"pressure\":\"Saturated\",\"execution_mode\":\"Jit\","
        + "\"topology\":\"HybridFrontier\",\"promote_hot_opcodes\":true,\"promote_hot_windows\":false,"
        + "\"age_priority_work\":true,\"estimated_peak_device_bytes\":131072,\"device_memory_budget_bytes\":0}"), answer(line));
    JsonNode overflow = answer(line.replace("\"requeue_count\":0", "\"requeue_count\":18446744073709551615")).get("error");
    assertEquals("BackendError", overflow.get("type").asText());
    assertEquals("Other", overflow.get("variant").asText());
    assertEquals("megakernel requeue count overflowed u64. Fix: shard telemetry windows before launch recommendation.",
        overflow.get("message").asText());
  }
}
