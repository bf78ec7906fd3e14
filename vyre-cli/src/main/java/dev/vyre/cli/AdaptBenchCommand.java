package dev.vyre.cli;

import dev.vyre.bench.AdaptBench;
import dev.vyre.driver.error.InputException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vyre bench adapt}: a load that changes phase (one-task round trips, a burst of tiny tasks,
 * round trips again) with every worker group claiming, with one, and with the launch policy's loop
 * deciding, in one run. The measuring is {@link AdaptBench}'s.
 */
@Command(name = "adapt", mixinStandardHelpOptions = true,
    description = "A load that changes phase, on fixed worker groups and with the launch policy deciding.")
final class AdaptBenchCommand implements Callable<Integer> {

  @Mixin BackendOption backendOption;

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

  @Option(names = "--json", description = "Also write the results as JSON to this file.")
  Path json;

  @Override
  public Integer call() throws Exception {
    BenchResults.atLeast("vyre bench adapt", "--round-trips", roundTrips, 1);
    BenchResults.atLeast("vyre bench adapt", "--tasks", tasks, 1);
    BenchResults.atLeast("vyre bench adapt", "--publishers", publishers, 0);
    BenchResults.atLeast("vyre bench adapt", "--batch", batch, 1);
    BenchResults.atLeast("vyre bench adapt", "--cycles", cycles, 1);
    if (batch > slots) {
      throw InputException.of("--batch", batch + " tasks do not fit the ring of " + slots + " slots", "pass a --batch of at most --slots");
    }
    OutputFiles.requireWritable("--json", json);
    PrintStream out = System.out;
    Map<String, Object> results = AdaptBench.run(new AdaptBench.Settings(backendOption.backend, roundTrips, tasks, publishers,
        batch, slots, cycles), out);
    BenchResults.print(out, results);
    BenchResults.writeJson(json, results);
    return 0;
  }
}
