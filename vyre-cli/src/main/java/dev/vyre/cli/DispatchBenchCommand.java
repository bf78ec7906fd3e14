package dev.vyre.cli;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.wire.Opcodes;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vyre bench dispatch}: one-task round trip (publish → host observes DONE) and sustained
 * tiny-task throughput from several publisher threads, on a live megakernel; on CUDA also the
 * same-run launch baselines and the ping-pong floor.
 */
@Command(name = "dispatch", mixinStandardHelpOptions = true, description = "Round-trip latency and tiny-task throughput of a live megakernel.")
final class DispatchBenchCommand implements Callable<Integer> {

  @Mixin BackendOption backendOption;

  @Option(names = "--tasks", defaultValue = "20000000", description = "Tasks for the throughput run (default: ${DEFAULT-VALUE}).")
  long tasks;

  @Option(names = "--publishers", defaultValue = "0", description = "Publisher threads (0 = one per core, at most 8).")
  int publishers;

  @Option(names = "--batch", defaultValue = "2048", description = "Tasks per published batch (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--slots", defaultValue = "65536", description = "Ring slots (default: ${DEFAULT-VALUE}).")
  int slots;

  @Option(names = "--round-trips", defaultValue = "20000", description = "Measured one-task round trips (default: ${DEFAULT-VALUE}).")
  int roundTrips;

  @Option(names = "--runs", defaultValue = "3",
      description = "Timed throughput runs after one untimed warm-up run of a fifth of --tasks; the median is reported (default: ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--idle-seconds", defaultValue = "3", description = "Idle window measured after the runs (default: ${DEFAULT-VALUE}).")
  int idleSeconds;

  @Option(names = "--json", description = "Also write the results as JSON to this file.")
  Path json;

  @Option(names = "--round-trip-log", description = "Also write every measured NOP round trip, in order, to this file (total and publish ns).")
  Path roundTripLog;

  @Override
  public Integer call() throws Exception {
    atLeast("--tasks", tasks, 1);
    atLeast("--batch", batch, 1);
    if (batch > slots) {
      throw InputException.of("--batch", batch + " tasks do not fit the ring of " + slots + " slots",
          "pass a --batch of at most --slots");
    }
    atLeast("--round-trips", roundTrips, 1);
    atLeast("--runs", runs, 1);
    atLeast("--idle-seconds", idleSeconds, 1);
    atLeast("--publishers", publishers, 0);
    OutputFiles.requireWritable("--json", json);
    OutputFiles.requireWritable("--round-trip-log", roundTripLog);
    int threads = publishers > 0 ? publishers : Math.min(8, Runtime.getRuntime().availableProcessors());
    Map<String, Object> results = new LinkedHashMap<>();
    results.put("date", Instant.now().toString());
    PrintStream out = System.out;
    // Baselines first, while nothing else holds the GPU's multiprocessors.
    Map<String, Object> baselines = DispatchMeasurements.backendBaselines(backendOption.backend, roundTrips);
    try (Megakernel kernel = Megakernel.builder().backend(backendOption.backend).slots(slots).singlePriority(Priority.NORMAL)
        .publishTimeout(Duration.ofSeconds(60)).bootstrap()) {
      results.put("backend", kernel.backendName());
      results.put("device", kernel.describe());
      out.println("vyre bench dispatch: " + kernel.describe());
      kernel.deviceTrace(true);
      DispatchMeasurements.RoundTrip trip = DispatchMeasurements.roundTrip(kernel, roundTrips);
      // Only with -Dvyre.cuda.trace=true: where a round trip's time goes on the device.
      results.putAll(kernel.deviceTrace(true));
      results.put("round_trip_p50_us", trip.p50Micros());
      results.put("round_trip_p99_us", trip.p99Micros());
      results.put("round_trip_min_us", trip.minMicros());
      results.put("round_trip_publish_p50_us", trip.publishP50Micros());
      if (roundTripLog != null) {
        Files.writeString(roundTripLog, trip.log());
      }
      DispatchMeasurements.RoundTrip store = DispatchMeasurements.roundTrip(kernel, roundTrips, Opcodes.STORE_U32);
      results.put("round_trip_store_u32_p50_us", store.p50Micros());
      results.put("round_trip_store_u32_p99_us", store.p99Micros());
      // The warm-up run lets the JIT compile the publish and retire paths before the clock runs.
      DispatchMeasurements.throughput(kernel, Math.max(1, tasks / 5), threads, batch);
      DispatchMeasurements.Throughput[] timed = new DispatchMeasurements.Throughput[Math.max(1, runs)];
      for (int run = 0; run < timed.length; run++) {
        timed[run] = DispatchMeasurements.throughput(kernel, tasks, threads, batch);
        out.printf("  throughput run %d: %.1f M tasks/s (in flight: %.0f %% finished, waiting for the host to retire;"
            + " %.0f %% retired in chunks verified ahead)%n", run + 1, timed[run].millionsPerSecond(), 100 * timed[run].finishedShare(),
            100 * timed[run].verifiedShare());
      }
      Arrays.sort(timed, Comparator.comparingDouble(DispatchMeasurements.Throughput::millionsPerSecond));
      DispatchMeasurements.Throughput throughput = timed[timed.length / 2];
      results.put("throughput_tasks", throughput.tasks());
      results.put("throughput_publishers", threads);
      results.put("throughput_batch", batch);
      results.put("throughput_runs", timed.length);
      results.put("throughput_mtasks_per_s", throughput.millionsPerSecond());
      results.put("throughput_best_mtasks_per_s", timed[timed.length - 1].millionsPerSecond());
      results.put("throughput_seconds", throughput.seconds());
      results.put("throughput_last_publish_s", throughput.publishSeconds());
      results.put("throughput_in_flight_finished_share", throughput.finishedShare());
      results.put("throughput_verified_ahead_share", throughput.verifiedShare());
      DispatchMeasurements.Idle idle = DispatchMeasurements.idle(kernel, Duration.ofSeconds(idleSeconds));
      results.put("idle_window_s", idle.seconds());
      results.put("idle_host_cpu_percent_of_one_core", idle.hostCpuPercent());
      results.put("idle_vyre_threads_cpu_percent_of_one_core", idle.vyreThreadsCpuPercent());
      results.put("idle_busiest_java_thread", idle.busiestThread());
      results.put("idle_kernel_polls_per_s", idle.heartbeatsPerSecond());
    }
    results.putAll(baselines);
    DispatchMeasurements.addRatios(results);
    BenchResults.print(out, results);
    BenchResults.writeJson(json, results);
    return 0;
  }

  private static void atLeast(String option, long value, long least) {
    if (value < least) {
      throw InputException.of(option, value + " is below " + least, "pass " + least + " or more (vyre bench dispatch --help)");
    }
  }
}
