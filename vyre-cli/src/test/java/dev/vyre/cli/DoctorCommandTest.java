package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.cli.policy.PolicyJson;
import dev.vyre.policy.MegakernelLaunchPolicy;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code vyre doctor --json}: the report and the launch policy's evidence, read back on the reference backend. */
class DoctorCommandTest {

  private static final int CORES = Runtime.getRuntime().availableProcessors();

  private static JsonNode report() throws IOException {
    CliRun run = CliRun.of("doctor", "--json");
    assertEquals(0, run.status(), run.err());
    return Json.MAPPER.readTree(run.out());
  }

  private static JsonNode reference(JsonNode report) {
    return elements(report.get("backends")).stream().filter(b -> b.get("name").asText().equals("reference")).findFirst()
        .orElseThrow();
  }

  private static List<JsonNode> elements(JsonNode array) {
    List<JsonNode> elements = new ArrayList<>();
    array.elements().forEachRemaining(elements::add);
    return elements;
  }

  @Test
  void reportsTheJdkEveryBackendAndTheProbesAsTheTextDoes() throws IOException {
    JsonNode report = report();
    assertEquals(Runtime.version().toString(), report.at("/jdk/version").asText());
    assertEquals(CORES, report.at("/jdk/cores").asInt());
    String text = CliRun.of("doctor").out();
    for (JsonNode backend : report.get("backends")) {
      String usable = backend.get("usable").asBoolean() ? "usable" : "unusable";
      assertTrue(text.contains(backend.get("name").asText()) && text.contains(usable + ": " + backend.get("detail").asText()),
          backend + " in " + text);
      assertEquals(0, backend.at("/devices/0/ordinal").asInt(), backend.toString());
      // Only a usable backend boots a kernel for the policy's evidence.
      assertEquals(backend.get("usable").asBoolean(), backend.has("policy"), backend.toString());
    }
    assertFalse(report.get("graph_backends").isEmpty(), report.toString());
    for (JsonNode probe : report.get("probes")) {
      assertTrue(text.lines().anyMatch(line -> line.startsWith(probe.get("name").asText())
          && line.endsWith(probe.get("detail").asText())), probe + " in " + text);
    }
    // This JDK has jdk.net: vyre serve can check its clients here.
    assertTrue(text.contains("serve      available: clients' credentials checked with SO_PEERCRED"), text);
  }

  @Test
  void theReferenceBackendsRecommendationIsWhatTheScanAsksAtBoot() throws IOException {
    JsonNode policy = reference(report()).get("policy");
    assertTrue(policy.get("kernel").asText().startsWith("reference: " + CORES + " worker thread(s)"), policy.toString());
    assertEquals(CORES, policy.at("/limits/worker_groups").asInt());
    assertEquals(1, policy.at("/limits/lanes_per_worker_group").asInt());
    assertEquals(CORES, policy.at("/limits/cores").asInt());
    List<JsonNode> jobs = elements(policy.get("scan_jobs"));
    assertEquals(List.of("one_small_file", "fills_every_buffer"), jobs.stream().map(j -> j.get("job").asText()).toList());

    // One small file: one task, so one worker group.
    JsonNode small = jobs.get(0);
    ScanOptions smallOptions = ScanOptions.forBackend("reference").fittedTo(DoctorPolicy.SMALL_FILE_BYTES);
    assertEquals(smallOptions.chunkBytes(), small.get("chunk_bytes").asLong());
    assertEquals(1, small.get("expected_tasks").asLong());
    assertEquals(1, small.at("/worker_groups/active").asInt());
    assertEquals(CORES, small.at("/worker_groups/of").asInt());
    assertEquals(1, small.at("/worker_groups/request/queue_len").asLong());
    assertEquals(CORES, small.at("/worker_groups/request/requested_worker_groups").asLong());
    assertEquals(1, small.at("/worker_groups/request/max_workgroup_size_x").asLong());
    assertTrue(small.at("/worker_groups/evidence").asText().startsWith("1 of " + CORES + " worker groups for a queue of 1"),
        small.toString());
    assertEquals(ScanJob.hitCapacity(smallOptions), small.at("/hit_capacity/records").asLong());

    // An input that fills every buffer: a ring of tasks, every worker group.
    JsonNode full = jobs.get(1);
    ScanOptions defaults = ScanOptions.forBackend("reference");
    assertEquals(defaults.buffers() * defaults.chunkBytes(), full.get("bytes").asLong());
    assertEquals(defaults.ringSlots(), full.get("ring_slots").asInt());
    assertEquals(defaults.ringSlots(), full.get("expected_tasks").asLong());
    assertEquals(CORES, full.at("/worker_groups/active").asInt());
    assertEquals(defaults.tasksPerChunk(), full.at("/hit_capacity/request/queue_len").asLong());
    assertEquals(defaults.taskBytes() / ScanOptions.EXPECTED_BYTES_PER_HIT,
        full.at("/hit_capacity/request/expected_hits_per_item").asLong());
    assertEquals(ScanJob.hitCapacity(defaults), full.at("/hit_capacity/records").asLong());
    assertEquals(defaults.hitCapacity(), full.at("/hit_capacity/recommendation/hit_capacity").asLong());
  }

  /** Every request in the evidence reads back through the policy's own reader and gives the recommendation beside it. */
  @Test
  void theEvidenceIsTheRequestThePolicyAnswered() throws IOException {
    for (JsonNode job : reference(report()).at("/policy/scan_jobs")) {
      for (String decision : List.of("worker_groups", "hit_capacity")) {
        JsonNode asked = job.get(decision);
        JsonNode answered = PolicyJson.recommendation(
            MegakernelLaunchPolicy.standard().recommend(PolicyJson.request(asked.get("request"), "doctor")));
        // Read back as the report was, so both hold their integers alike.
        assertEquals(Json.MAPPER.readTree(answered.toString()), asked.get("recommendation"), job.get("job") + " " + decision);
      }
    }
  }
}
