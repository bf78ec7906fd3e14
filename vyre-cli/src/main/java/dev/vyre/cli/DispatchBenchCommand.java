package dev.vyre.cli;

import dev.vyre.bench.DispatchBench;
import dev.vyre.driver.error.InputException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vyre bench dispatch}: one-task round trip (publish → host observes DONE) and sustained
 * tiny-task throughput from several publisher threads, on a live megakernel; on CUDA also the
 * same-run launch baselines and the ping-pong floor. The measuring is {@link DispatchBench}'s.
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
    BenchResults.atLeast("vyre bench dispatch", "--tasks", tasks, 1);
    BenchResults.atLeast("vyre bench dispatch", "--batch", batch, 1);
    if (batch > slots) {
      throw InputException.of("--batch", batch + " tasks do not fit the ring of " + slots + " slots",
          "pass a --batch of at most --slots");
    }
    BenchResults.atLeast("vyre bench dispatch", "--round-trips", roundTrips, 1);
    BenchResults.atLeast("vyre bench dispatch", "--runs", runs, 1);
    BenchResults.atLeast("vyre bench dispatch", "--idle-seconds", idleSeconds, 1);
    BenchResults.atLeast("vyre bench dispatch", "--publishers", publishers, 0);
    OutputFiles.requireWritable("--json", json);
    OutputFiles.requireWritable("--round-trip-log", roundTripLog);
    PrintStream out = System.out;
    Map<String, Object> results = DispatchBench.run(new DispatchBench.Settings(backendOption.backend, tasks, publishers, batch,
        slots, roundTrips, runs, idleSeconds, roundTripLog), out);
    BenchResults.print(out, results);
    BenchResults.writeJson(json, results);
    return 0;
  }
}
