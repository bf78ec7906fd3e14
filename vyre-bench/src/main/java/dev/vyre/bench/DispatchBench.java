package dev.vyre.bench;

import dev.vyre.policy.adapt.WorkerGroupLoop;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.wire.Opcodes;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code vyre bench dispatch} measures: one-task round trip (publish → host observes DONE)
 * and sustained tiny-task throughput from several publisher threads, on a live megakernel; on CUDA
 * also the same-run launch baselines and the ping-pong floor.
 */
public final class DispatchBench {

  /**
   * One run's settings, the {@code vyre bench dispatch} options of the same names.
   *
   * @param backend the backend to measure: {@code auto}, {@code reference} or {@code cuda}
   * @param tasks tasks of each timed throughput run (the untimed warm-up run publishes a fifth)
   * @param publishers publisher threads; 0 is one per core, at most 8
   * @param batch tasks per published batch, at most {@code slots}
   * @param slots ring slots
   * @param roundTrips measured one-task round trips (of a NOP, and again of a STORE_U32)
   * @param runs timed throughput runs, of which the median is reported
   * @param idleSeconds the idle window measured after the runs
   * @param roundTripLog where to write every measured NOP round trip, in order; null for nowhere
   */
  public record Settings(String backend, long tasks, int publishers, int batch, int slots, int roundTrips, int runs,
      int idleSeconds, Path roundTripLog) {

    /** Refuses settings that measure nothing. */
    public Settings {
      Objects.requireNonNull(backend, "backend");
      if (tasks < 1 || publishers < 0 || batch < 1 || batch > slots || roundTrips < 1 || runs < 1 || idleSeconds < 1) {
        throw new IllegalArgumentException("settings that measure nothing: tasks " + tasks + ", publishers " + publishers
            + ", batch " + batch + " of " + slots + " slots, round trips " + roundTrips + ", runs " + runs
            + ", idle seconds " + idleSeconds);
      }
    }
  }

  private DispatchBench() {}

  /**
   * One-task round trips once the policy's loop has shed the idle kernel's worker groups, against
   * every group claiming (measured before): fewer warps polling the lines a round trip crosses.
   */
  private static Map<String, Object> policyRoundTrip(Megakernel kernel, int roundTrips) throws InterruptedException {
    Map<String, Object> results = new LinkedHashMap<>();
    try (WorkerGroupLoop loop = WorkerGroupLoop.start(kernel, WorkerGroupLoop.Options.defaults(), change -> {})) {
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (kernel.activeWorkerGroups() == kernel.workerGroups() && kernel.workerGroups() > 1 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      results.put("policy_idle_active_worker_groups", kernel.activeWorkerGroups());
      DispatchMeasurements.RoundTrip trip = DispatchMeasurements.roundTrip(kernel, roundTrips);
      results.put("policy_round_trip_p50_us", trip.p50Micros());
      results.put("policy_round_trip_p99_us", trip.p99Micros());
      results.put("policy_active_worker_groups_after", kernel.activeWorkerGroups());
    }
    kernel.setActiveWorkerGroups(kernel.workerGroups());
    return results;
  }

  private static double throughputWithLoop(Megakernel kernel, Settings settings, int threads)
      throws InterruptedException {
    try (WorkerGroupLoop loop = WorkerGroupLoop.start(kernel, WorkerGroupLoop.Options.defaults(), change -> {})) {
      return DispatchMeasurements.throughput(kernel, settings.tasks(), threads, settings.batch()).millionsPerSecond();
    } finally {
      kernel.setActiveWorkerGroups(kernel.workerGroups());
    }
  }

  /**
   * Measures, printing a line per step to {@code out}, and returns the measures in the order
   * {@code vyre bench dispatch} reports them.
   */
  public static Map<String, Object> run(Settings settings, PrintStream out) throws IOException, InterruptedException {
    int threads = settings.publishers() > 0 ? settings.publishers() : Math.min(8, Runtime.getRuntime().availableProcessors());
    Map<String, Object> results = new LinkedHashMap<>();
    results.put("date", Instant.now().toString());
    // Baselines first, while nothing else holds the GPU's multiprocessors.
    Map<String, Object> baselines = DispatchMeasurements.backendBaselines(settings.backend(), settings.roundTrips());
    try (Megakernel kernel = Megakernel.builder().backend(settings.backend()).slots(settings.slots())
        .singlePriority(Priority.NORMAL).publishTimeout(Duration.ofSeconds(60)).bootstrap()) {
      results.put("backend", kernel.backendName());
      results.put("device", kernel.describe());
      out.println("vyre bench dispatch: " + kernel.describe());
      kernel.deviceTrace(true);
      DispatchMeasurements.RoundTrip trip = DispatchMeasurements.roundTrip(kernel, settings.roundTrips());
      // Only with -Dvyre.cuda.trace=true: where a round trip's time goes on the device.
      results.putAll(kernel.deviceTrace(true));
      results.put("round_trip_p50_us", trip.p50Micros());
      results.put("round_trip_p99_us", trip.p99Micros());
      results.put("round_trip_min_us", trip.minMicros());
      results.put("round_trip_publish_p50_us", trip.publishP50Micros());
      if (settings.roundTripLog() != null) {
        Files.writeString(settings.roundTripLog(), trip.log());
      }
      DispatchMeasurements.RoundTrip store = DispatchMeasurements.roundTrip(kernel, settings.roundTrips(), Opcodes.STORE_U32);
      results.put("round_trip_store_u32_p50_us", store.p50Micros());
      results.put("round_trip_store_u32_p99_us", store.p99Micros());
      // The warm-up run lets the JIT compile the publish and retire paths before the clock runs.
      DispatchMeasurements.throughput(kernel, Math.max(1, settings.tasks() / 5), threads, settings.batch());
      DispatchMeasurements.Throughput[] timed = new DispatchMeasurements.Throughput[Math.max(1, settings.runs())];
      // Each run twice: every worker group claiming (the fixed grid), and with the launch policy's
      // loop sampling and deciding (docs/POLICY.md): what the loop costs tiny tasks. The pair's order
      // alternates, so that a drift over the runs does not count as the loop's cost; the paired
      // ratios' median and quartiles say whether the cost shows above the runs' spread.
      double[] withLoop = new double[timed.length];
      double[] ratios = new double[timed.length];
      for (int run = 0; run < timed.length; run++) {
        boolean loopFirst = run % 2 == 1;
        if (loopFirst) {
          withLoop[run] = throughputWithLoop(kernel, settings, threads);
        }
        timed[run] = DispatchMeasurements.throughput(kernel, settings.tasks(), threads, settings.batch());
        if (!loopFirst) {
          withLoop[run] = throughputWithLoop(kernel, settings, threads);
        }
        ratios[run] = withLoop[run] / timed[run].millionsPerSecond();
        out.printf("  throughput run %d: %.1f M tasks/s (in flight: %.0f %% finished, waiting for the host to retire;"
            + " %.0f %% retired in chunks verified ahead); with the policy loop %.1f (%s)%n", run + 1,
            timed[run].millionsPerSecond(), 100 * timed[run].finishedShare(), 100 * timed[run].verifiedShare(),
            withLoop[run], loopFirst ? "run first" : "run second");
      }
      Arrays.sort(withLoop);
      Arrays.sort(ratios);
      results.put("policy_loop_throughput_mtasks_per_s", withLoop[withLoop.length / 2]);
      results.put("policy_loop_paired_ratio_median", ratios[ratios.length / 2]);
      results.put("policy_loop_paired_ratio_q1", ratios[ratios.length / 4]);
      results.put("policy_loop_paired_ratio_q3", ratios[ratios.length * 3 / 4]);
      out.printf("  with the policy loop / without, paired: median %.4f, quartiles %.4f and %.4f over %d pairs%n",
          ratios[ratios.length / 2], ratios[ratios.length / 4], ratios[ratios.length * 3 / 4], ratios.length);
      results.putAll(policyRoundTrip(kernel, settings.roundTrips()));
      Arrays.sort(timed, Comparator.comparingDouble(DispatchMeasurements.Throughput::millionsPerSecond));
      DispatchMeasurements.Throughput throughput = timed[timed.length / 2];
      results.put("throughput_tasks", throughput.tasks());
      results.put("throughput_publishers", threads);
      results.put("throughput_batch", settings.batch());
      results.put("throughput_runs", timed.length);
      results.put("throughput_mtasks_per_s", throughput.millionsPerSecond());
      results.put("throughput_best_mtasks_per_s", timed[timed.length - 1].millionsPerSecond());
      results.put("throughput_seconds", throughput.seconds());
      results.put("throughput_last_publish_s", throughput.publishSeconds());
      results.put("throughput_in_flight_finished_share", throughput.finishedShare());
      results.put("throughput_verified_ahead_share", throughput.verifiedShare());
      DispatchMeasurements.Idle idle = DispatchMeasurements.idle(kernel, Duration.ofSeconds(settings.idleSeconds()));
      results.put("idle_window_s", idle.seconds());
      results.put("idle_host_cpu_percent_of_one_core", idle.hostCpuPercent());
      results.put("idle_vyre_threads_cpu_percent_of_one_core", idle.vyreThreadsCpuPercent());
      results.put("idle_busiest_java_thread", idle.busiestThread());
      results.put("idle_kernel_polls_per_s", idle.heartbeatsPerSecond());
    }
    results.putAll(baselines);
    DispatchMeasurements.addRatios(results);
    return results;
  }
}
