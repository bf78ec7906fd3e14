package dev.vyre.bench;

import dev.vyre.driver.error.InputException;
import dev.vyre.observe.promotion.PromotionLoop;
import dev.vyre.policy.adapt.WorkerGroupLoop;
import dev.vyre.runtime.Megakernel;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code vyre bench adapt}: loads whose right configuration changes while they run, each measured
 * with each fixed configuration and with the launch policy's loop deciding (docs/POLICY.md), in the
 * same run on one kernel per load. The loads ({@link #WORKLOADS}): one-task round trips around a
 * burst of tiny tasks ({@link RoundTripPhases}), a scan whose match density jumps from sparse to dense
 * ({@link DensityScanPhases}), task cost that changes by 100x ({@link TaskCostPhases}), a hot DFA
 * table scanned again and again from a file ({@link PromotionScanPhases}) and from the kernel's
 * memory ({@link ResidentPromotionPhases}). The configurations: every worker group claiming (the
 * default), one group claiming, both with the interpreted DFA_STEP, and the loops a scan runs (worker
 * groups, and promotion where the backend's promoted DFA_STEP is faster) deciding, with a resident
 * scan asking the policy at its start. Each cycle runs the three in turn, each cycle starting one
 * configuration later than the one before, so that no configuration always follows the same one (a
 * pass that follows one group claiming starts by waking the others); medians over the cycles are
 * reported. A load that cannot
 * run on the backend reports why instead ({@code promotion_unavailable} on a backend that cannot
 * promote).
 */
public final class AdaptBench {

  /** Every load, in the order they run. */
  public static final List<String> WORKLOADS = List.of("round_trips", "density", "cost", "promotion", "resident");
  /** The loops the adaptive configuration may run: the worker-group loop and the promotion loop. */
  public static final List<String> LOOPS = List.of("workers", "promotion");

  /**
   * @param backend the backend to measure
   * @param workloads the loads to run, of {@link #WORKLOADS}
   * @param roundTrips one-task round trips in each light phase (after the round trip's own warm-up)
   * @param tasks tasks in the round-trip load's burst and in each cheap phase of the cost load
   * @param publishers publisher threads in the bursts (0: one per core, at most 8)
   * @param batch tasks per published batch
   * @param slots ring slots of the round-trip and cost loads' kernels
   * @param cycles times each configuration runs the phases
   * @param corpusBytes bytes of the density and promotion loads' corpora
   * @param costSteps steps of a cheap task of the cost load (a costly one has 100 times as many)
   * @param loops the loops the adaptive configuration runs, of {@link #LOOPS}: both, or one alone to tell their
   *     effects apart
   */
  public record Settings(String backend, List<String> workloads, int roundTrips, long tasks, int publishers, int batch,
      int slots, int cycles, long corpusBytes, int costSteps, List<String> loops) {

    public Settings {
      for (String workload : workloads) {
        if (!WORKLOADS.contains(workload)) {
          throw InputException.of("--workloads", "no workload \"" + workload + "\"", "use some of " + String.join(",", WORKLOADS));
        }
      }
      for (String loop : loops) {
        if (!LOOPS.contains(loop)) {
          throw InputException.of("--loops", "no loop \"" + loop + "\"", "use one or both of " + String.join(",", LOOPS));
        }
      }
      workloads = List.copyOf(workloads);
      loops = List.copyOf(loops);
    }
  }

  /** The configurations, in the order each cycle runs them. */
  private enum Configuration {
    FIXED_ALL("fixed_all"), FIXED_ONE("fixed_one"), ADAPTIVE("adaptive");

    final String key;

    Configuration(String key) {
      this.key = key;
    }
  }

  private AdaptBench() {}

  /**
   * Measures, printing a line per load, configuration and cycle to {@code out}, and returns the
   * measures: the round-trip load's under their own names ({@code fixed_all_phases_s}, ...), the
   * others' prefixed with the load's name ({@code density_fixed_all_phases_s}, ...).
   */
  public static Map<String, Object> run(Settings settings, PrintStream out) throws IOException, InterruptedException {
    int threads = settings.publishers() > 0 ? settings.publishers() : Math.min(8, Runtime.getRuntime().availableProcessors());
    Map<String, Object> results = new LinkedHashMap<>();
    results.put("date", Instant.now().toString());
    for (String name : settings.workloads()) {
      try (AdaptWorkload workload = workload(name, settings, threads)) {
        measure(workload, settings.cycles(), settings.loops(), results, out);
      }
    }
    results.put("round_trips_per_light_phase", settings.roundTrips());
    results.put("burst_tasks", settings.tasks());
    results.put("burst_publishers", threads);
    results.put("cycles", settings.cycles());
    results.put("density_corpus_bytes", settings.corpusBytes());
    results.put("cost_cheap_steps", settings.costSteps());
    results.put("adaptive_loops", String.join(",", settings.loops()));
    return results;
  }

  private static AdaptWorkload workload(String name, Settings settings, int publishers) throws IOException {
    return switch (name) {
      case "round_trips" -> new RoundTripPhases(settings, publishers);
      case "density" -> new DensityScanPhases(settings);
      case "promotion" -> new PromotionScanPhases(settings);
      case "resident" -> new ResidentPromotionPhases(settings);
      default -> new TaskCostPhases(settings, publishers);
    };
  }

  private static void measure(AdaptWorkload workload, int cycles, List<String> loops, Map<String, Object> results,
      PrintStream out) throws InterruptedException {
    String prefix = workload.name().equals("round_trips") ? "" : workload.name() + "_";
    int configurations = Configuration.values().length;
    double[][] seconds = new double[configurations][cycles];
    List<Map<String, double[]>> measures = new ArrayList<>();
    for (int c = 0; c < configurations; c++) {
      measures.add(new LinkedHashMap<>());
    }
    long promotions = 0;
    Megakernel kernel = workload.boot();
    try {
      results.put(prefix + "backend", kernel.backendName());
      results.put(prefix + "device", kernel.describe());
      results.put(prefix + "worker_groups", kernel.workerGroups());
      out.println("vyre bench adapt: " + workload.name() + ": " + kernel.describe());
      String unavailable = workload.unavailableOn(kernel);
      if (unavailable != null) {
        out.println("vyre bench adapt: " + workload.name() + ": not measured on " + kernel.backendName() + ": " + unavailable);
        results.put(prefix + "unavailable", unavailable);
        return;
      }
      // Untimed: the JIT compiles the load's paths first.
      workload.warmUp(kernel);
      boolean promotes = loops.contains("promotion") && kernel.promotedDfaIsFaster();
      if (loops.contains("promotion") && !promotes) {
        out.println("vyre bench adapt: " + workload.name() + ": no promotion loop: the " + kernel.backendName()
            + " backend has no faster promoted DFA_STEP (as in a scan)");
      }
      for (int cycle = 0; cycle < cycles; cycle++) {
        for (int turn = 0; turn < configurations; turn++) {
          int c = (cycle + turn) % configurations;
          Configuration configuration = Configuration.values()[c];
          kernel.setActiveWorkerGroups(configuration == Configuration.FIXED_ONE ? 1 : kernel.workerGroups());
          boolean adaptive = configuration == Configuration.ADAPTIVE;
          WorkerGroupLoop loop = adaptive && loops.contains("workers")
              ? WorkerGroupLoop.start(kernel, WorkerGroupLoop.Options.defaults(), change -> {}) : null;
          PromotionLoop promotion = adaptive && promotes
              ? PromotionLoop.start(kernel, PromotionLoop.Options.defaults(), report -> {}) : null;
          AdaptWorkload.Pass pass;
          try {
            pass = workload.run(kernel, adaptive);
          } finally {
            if (loop != null) {
              loop.close();
            }
            if (promotion != null) {
              // Demotes what it promoted: the next fixed configuration interprets again.
              promotion.close();
            }
          }
          if (loop != null) {
            out.println("    worker-group loop: " + loop.timing().line());
          }
          if (promotion != null) {
            promotions = Math.max(promotions, promotion.promotions());
            out.println("    promotion loop: " + promotion.timing().line());
          }
          seconds[c][cycle] = pass.seconds();
          StringBuilder line = new StringBuilder(String.format("  cycle %d, %-11s %-9s", cycle + 1, workload.name(),
              configuration.key));
          for (Map.Entry<String, Double> measure : pass.measures().entrySet()) {
            measures.get(c).computeIfAbsent(measure.getKey(), key -> new double[cycles])[cycle] = measure.getValue();
            line.append(' ').append(workload.describe(measure.getKey(), measure.getValue())).append(',');
          }
          out.println(line.append(String.format(" phases %.3f s", pass.seconds())));
        }
      }
      kernel.setActiveWorkerGroups(kernel.workerGroups());
    } finally {
      try {
        workload.detach();
      } finally {
        kernel.close();
      }
    }
    double best = Double.MAX_VALUE;
    for (Configuration configuration : Configuration.values()) {
      int c = configuration.ordinal();
      for (Map.Entry<String, double[]> measure : measures.get(c).entrySet()) {
        results.put(prefix + configuration.key + "_" + measure.getKey(), median(measure.getValue()));
      }
      results.put(prefix + configuration.key + "_phases_s", median(seconds[c]));
      if (configuration != Configuration.ADAPTIVE) {
        best = Math.min(best, median(seconds[c]));
      }
    }
    results.put(prefix + "adaptive_promotions", promotions);
    double adaptive = median(seconds[Configuration.ADAPTIVE.ordinal()]);
    results.put(prefix + "adaptive_over_best_fixed_time", adaptive / best);
    results.put(prefix + "fixed_all_over_adaptive_time", median(seconds[Configuration.FIXED_ALL.ordinal()]) / adaptive);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
