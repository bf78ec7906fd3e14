package dev.vyre.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.cli.policy.PolicyJson;
import dev.vyre.driver.error.VyreException;
import dev.vyre.policy.MegakernelLaunchPolicy;
import dev.vyre.policy.MegakernelLaunchRequest;
import dev.vyre.policy.adapt.WorkerGroupLoop;
import dev.vyre.policy.adapt.WorkerGroupPolicy;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.spi.MegakernelBackend;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;

/**
 * The launch policy's recommendations for {@code vyre scan} on one backend, with the inputs they
 * came from, for {@code vyre doctor --json} (docs/POLICY.md, "vyre doctor --json"). It boots the
 * kernel a one-device scan boots, since a GPU's worker groups are known only from its device, and
 * asks the policy exactly what the scan asks at boot, for two jobs of default options: one small
 * file, and an input that fills every chunk buffer.
 */
final class DoctorPolicy {

  /** A small source file's bytes: a job of one task. */
  static final long SMALL_FILE_BYTES = 4096;

  private DoctorPolicy() {}

  /** The recommendations on {@code backend}, or {@code {"error": ...}} when its kernel does not start. */
  static ObjectNode of(MegakernelBackend backend) {
    ScanOptions defaults = ScanOptions.forBackend(backend.name());
    int cores = Runtime.getRuntime().availableProcessors();
    ObjectNode json = Json.object();
    try (Megakernel kernel = ScanCommand.bootstrap(Megakernel.builder().backend(backend), defaults, defaults.ringSlots(), cores)) {
      json.put("kernel", kernel.describe());
      ObjectNode limits = json.putObject("limits");
      limits.put("worker_groups", kernel.workerGroups());
      limits.put("lanes_per_worker_group", kernel.lanesPerWorkerGroup());
      limits.put("cores", cores);
      ArrayNode jobs = json.putArray("scan_jobs");
      jobs.add(job(kernel, defaults, "one_small_file", 1, SMALL_FILE_BYTES));
      jobs.add(job(kernel, defaults, "fills_every_buffer", 1, defaults.buffers() * defaults.chunkBytes()));
    } catch (VyreException e) {
      json.removeAll();
      json.put("error", e.getMessage());
    }
    return json;
  }

  private static ObjectNode job(Megakernel kernel, ScanOptions defaults, String name, long files, long bytes) {
    ScanOptions options = defaults.fittedTo(bytes);
    long expectedTasks = ScanCommand.expectedTasks(files, bytes, options);
    ObjectNode json = Json.object();
    json.put("job", name);
    json.put("files", files);
    json.put("bytes", bytes);
    json.put("chunk_bytes", options.chunkBytes());
    json.put("task_bytes", options.taskBytes());
    json.put("buffers", options.buffers());
    json.put("ring_slots", options.ringSlots());
    json.put("expected_tasks", expectedTasks);
    WorkerGroupPolicy.Decision decision = WorkerGroupLoop.bootDecision(kernel, expectedTasks);
    ObjectNode groups = json.putObject("worker_groups");
    groups.put("active", decision.activeGroups());
    groups.put("of", kernel.workerGroups());
    groups.put("evidence", decision.evidence());
    groups.set("request", PolicyJson.request(decision.request()));
    groups.set("recommendation", PolicyJson.recommendation(decision.recommendation()));
    MegakernelLaunchRequest hitRequest = options.hitCapacityRequest();
    ObjectNode hits = json.putObject("hit_capacity");
    hits.put("records", ScanJob.hitCapacity(options));
    hits.set("request", PolicyJson.request(hitRequest));
    hits.set("recommendation", PolicyJson.recommendation(MegakernelLaunchPolicy.standard().recommend(hitRequest)));
    return json;
  }
}
