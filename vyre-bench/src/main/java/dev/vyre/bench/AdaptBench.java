package dev.vyre.bench;

import dev.vyre.policy.adapt.WorkerGroupLoop;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code vyre bench adapt}: a load whose right configuration changes while it runs, measured with
 * each fixed configuration and with the launch policy's loop deciding (docs/POLICY.md), in the same
 * run on one kernel. The load is phases: one-task round trips (light: a few groups serve it, and
 * fewer polling warps may shorten it), a burst of tiny tasks from several publishers (saturated:
 * every group is needed), round trips again. The configurations: every worker group claiming (the
 * default), one group claiming, and the loop. Each cycle runs the three in turn; medians over the
 * cycles are reported.
 */
public final class AdaptBench {

  /**
   * @param backend the backend to measure
   * @param roundTrips one-task round trips in each light phase (after the round trip's own warm-up)
   * @param tasks tasks in the saturated phase
   * @param publishers publisher threads in the saturated phase (0: one per core, at most 8)
   * @param batch tasks per published batch
   * @param slots ring slots
   * @param cycles times each configuration runs the phases
   */
  public record Settings(String backend, int roundTrips, long tasks, int publishers, int batch, int slots, int cycles) {}

  /** The configurations, in the order each cycle runs them. */
  private enum Configuration {
    FIXED_ALL("fixed_all"), FIXED_ONE("fixed_one"), ADAPTIVE("adaptive");

    final String key;

    Configuration(String key) {
      this.key = key;
    }
  }

  private AdaptBench() {}

  /** Measures, printing a line per configuration and cycle to {@code out}, and returns the measures. */
  public static Map<String, Object> run(Settings settings, PrintStream out) throws InterruptedException {
    int threads = settings.publishers() > 0 ? settings.publishers() : Math.min(8, Runtime.getRuntime().availableProcessors());
    Map<String, Object> results = new LinkedHashMap<>();
    results.put("date", Instant.now().toString());
    int configurations = Configuration.values().length;
    double[][] light = new double[configurations][settings.cycles()];
    double[][] heavy = new double[configurations][settings.cycles()];
    double[][] seconds = new double[configurations][settings.cycles()];
    try (Megakernel kernel = Megakernel.builder().backend(settings.backend()).slots(settings.slots())
        .singlePriority(Priority.NORMAL).publishTimeout(Duration.ofSeconds(60)).bootstrap()) {
      results.put("backend", kernel.backendName());
      results.put("device", kernel.describe());
      results.put("worker_groups", kernel.workerGroups());
      out.println("vyre bench adapt: " + kernel.describe());
      // Untimed: the JIT compiles the publish and retire paths first.
      DispatchMeasurements.throughput(kernel, Math.max(1, settings.tasks() / 5), threads, settings.batch());
      for (int cycle = 0; cycle < settings.cycles(); cycle++) {
        for (Configuration configuration : Configuration.values()) {
          int c = configuration.ordinal();
          kernel.setActiveWorkerGroups(configuration == Configuration.FIXED_ONE ? 1 : kernel.workerGroups());
          WorkerGroupLoop loop = configuration == Configuration.ADAPTIVE
              ? WorkerGroupLoop.start(kernel, WorkerGroupLoop.Options.defaults(), change -> {}) : null;
          try {
            long start = System.nanoTime();
            double first = DispatchMeasurements.roundTrip(kernel, settings.roundTrips()).p50Micros();
            heavy[c][cycle] = DispatchMeasurements.throughput(kernel, settings.tasks(), threads, settings.batch()).millionsPerSecond();
            double second = DispatchMeasurements.roundTrip(kernel, settings.roundTrips()).p50Micros();
            seconds[c][cycle] = (System.nanoTime() - start) / 1e9;
            light[c][cycle] = (first + second) / 2;
          } finally {
            if (loop != null) {
              loop.close();
            }
          }
          out.printf("  cycle %d, %-9s round trip p50 %.3f us, burst %.1f M tasks/s, phases %.3f s%n", cycle + 1,
              configuration.key, light[c][cycle], heavy[c][cycle], seconds[c][cycle]);
        }
      }
      kernel.setActiveWorkerGroups(kernel.workerGroups());
    }
    results.put("round_trips_per_light_phase", settings.roundTrips());
    results.put("burst_tasks", settings.tasks());
    results.put("burst_publishers", threads);
    results.put("cycles", settings.cycles());
    double best = Double.MAX_VALUE;
    for (Configuration configuration : Configuration.values()) {
      int c = configuration.ordinal();
      results.put(configuration.key + "_round_trip_p50_us", median(light[c]));
      results.put(configuration.key + "_burst_mtasks_per_s", median(heavy[c]));
      results.put(configuration.key + "_phases_s", median(seconds[c]));
      if (configuration != Configuration.ADAPTIVE) {
        best = Math.min(best, median(seconds[c]));
      }
    }
    double adaptive = median(seconds[Configuration.ADAPTIVE.ordinal()]);
    results.put("adaptive_over_best_fixed_time", adaptive / best);
    results.put("fixed_all_over_adaptive_time", median(seconds[Configuration.FIXED_ALL.ordinal()]) / adaptive);
    return results;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
