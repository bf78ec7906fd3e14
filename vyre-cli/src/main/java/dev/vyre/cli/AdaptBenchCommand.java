package dev.vyre.cli;

import dev.vyre.bench.AdaptBench;
import dev.vyre.driver.error.InputException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vyre bench adapt}: loads that change phase (one-task round trips around a burst of tiny
 * tasks; a scan whose match density jumps from sparse to dense; task cost that changes by 100x; a
 * hot DFA table scanned again and again) with every worker group claiming, with one, and with the
 * launch policy's loops (worker groups, promotion) deciding, in one run. The
 * measuring is {@link AdaptBench}'s.
 */
@Command(name = "adapt", mixinStandardHelpOptions = true,
    description = "Loads that change phase, on fixed worker groups and with the launch policy deciding.")
final class AdaptBenchCommand implements Callable<Integer> {

  @Mixin BackendOption backendOption;

  @Option(names = "--workloads", defaultValue = "round_trips,density,cost,promotion,resident", split = ",",
      description = "The loads to run: round_trips (round trips, a burst, round trips), density (a scan whose matches "
          + "jump from sparse to dense), cost (task cost that changes by 100x), promotion (a corpus of 100 literals "
          + "scanned 4 times: its DFA table is hot), resident (the same corpus held in the kernel's memory, scanned 8 "
          + "times) (default: ${DEFAULT-VALUE}).")
  List<String> workloads;

  @Option(names = "--round-trips", defaultValue = "200000", description = "One-task round trips in each light phase (default: ${DEFAULT-VALUE}).")
  int roundTrips;

  @Option(names = "--tasks", defaultValue = "20000000", description = "Tasks in the burst (default: ${DEFAULT-VALUE}).")
  long tasks;

  @Option(names = "--publishers", defaultValue = "0", description = "Publisher threads in the burst (0 = one per core, at most 8).")
  int publishers;

  @Option(names = "--batch", defaultValue = "2048", description = "Tasks per published batch (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--slots", defaultValue = "65536", description = "Ring slots (default: ${DEFAULT-VALUE}).")
  int slots;

  @Option(names = "--cycles", defaultValue = "3", description = "Times each configuration runs the phases; medians are reported (default: ${DEFAULT-VALUE}).")
  int cycles;

  @Option(names = "--corpus-size", defaultValue = "268435456", paramLabel = "BYTES",
      description = "Bytes of the density, promotion and resident loads' corpora, temporary files (default: ${DEFAULT-VALUE}).")
  long corpusBytes;

  @Option(names = "--cost-steps", defaultValue = "64", paramLabel = "N",
      description = "Steps of a cheap task of the cost load; a costly one takes 100 times as many (default: ${DEFAULT-VALUE}).")
  int costSteps;

  @Option(names = "--loops", defaultValue = "workers,promotion", split = ",",
      description = "The loops the adaptive configuration runs: workers (the worker-group loop), promotion (the "
          + "promotion loop), or both; one alone tells their effects apart (default: ${DEFAULT-VALUE}).")
  List<String> loops;

  @Option(names = "--json", description = "Also write the results as JSON to this file.")
  Path json;

  @Override
  public Integer call() throws Exception {
    BenchResults.atLeast("vyre bench adapt", "--round-trips", roundTrips, 1);
    BenchResults.atLeast("vyre bench adapt", "--tasks", tasks, 1);
    BenchResults.atLeast("vyre bench adapt", "--publishers", publishers, 0);
    BenchResults.atLeast("vyre bench adapt", "--batch", batch, 1);
    BenchResults.atLeast("vyre bench adapt", "--cycles", cycles, 1);
    BenchResults.atLeast("vyre bench adapt", "--corpus-size", corpusBytes, 1);
    BenchResults.atLeast("vyre bench adapt", "--cost-steps", costSteps, 1);
    if (costSteps > Integer.MAX_VALUE / 100) {
      throw InputException.of("--cost-steps", costSteps + " steps make a costly task of more than 2^31 - 1",
          "pass at most " + Integer.MAX_VALUE / 100);
    }
    if (batch > slots) {
      throw InputException.of("--batch", batch + " tasks do not fit the ring of " + slots + " slots", "pass a --batch of at most --slots");
    }
    OutputFiles.requireWritable("--json", json);
    PrintStream out = System.out;
    Map<String, Object> results = AdaptBench.run(new AdaptBench.Settings(backendOption.backend, workloads, roundTrips, tasks,
        publishers, batch, slots, cycles, corpusBytes, costSteps, loops), out);
    BenchResults.print(out, results);
    BenchResults.writeJson(json, results);
    return 0;
  }
}
