package dev.vyre.cli;

import dev.vyre.bench.IoBench;
import dev.vyre.driver.error.InputException;
import dev.vyre.io.IoRequestPump;
import dev.vyre.io.LoadOpcode;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vyre bench io}: the reads tasks ask for (docs/PROTOCOL.md, "Reads a task asks for"),
 * measured with {@link LoadOpcode} against the host reading the same ranges itself, in one run on
 * one backend. Writes a file of pseudo-random bytes and reads it once, so every figure reads from
 * the page cache (with {@code --cold}, the file's pages are dropped from it before each pass
 * instead, so that the reads come from the disk); then, on a live kernel: the host's own
 * positional {@code FileChannel} reads into a HOST_MAPPED resource's host view (4 KiB one at a
 * time, and {@code --bytes} at a time over the whole file), one 4 KiB load task at a time
 * (publish, then await), and loads of {@code --bytes} over the whole file with {@code --in-flight}
 * of them in flight, each into its own HOST_MAPPED resource. The pump reads on the path
 * {@code --pump-reads} asks for, and the command prints the one it took. Every throughput run is
 * checked: the pump served one request per load and none failed, and sampled resources hold the
 * file's bytes; a mismatch ends the command with an error. The measuring is {@link IoBench}'s.
 */
@Command(name = "io", mixinStandardHelpOptions = true,
    description = "Loads tasks ask for (LoadOpcode through the IO queue and the host's pump) against the host reading the same file ranges itself.")
final class IoBenchCommand implements Callable<Integer> {

  @Mixin BackendOption backendOption;

  @Option(names = "--size", defaultValue = "268435456", paramLabel = "BYTES",
      description = "Bytes of the file read (default: ${DEFAULT-VALUE}).")
  long size;

  @Option(names = "--bytes", defaultValue = "65536", paramLabel = "BYTES",
      description = "Bytes per load (and per host read) in the throughput runs (default: ${DEFAULT-VALUE}).")
  int bytes;

  @Option(names = "--round-trips", defaultValue = "20000", paramLabel = "N",
      description = "Measured 4 KiB load round trips (and host 4 KiB reads), after an untimed fifth as many (default: ${DEFAULT-VALUE}).")
  int roundTrips;

  @Option(names = "--in-flight", defaultValue = "64", paramLabel = "N",
      description = "Loads in flight in the throughput runs, each into its own resource (default: ${DEFAULT-VALUE}).")
  int inFlight;

  @Option(names = "--runs", defaultValue = "3",
      description = "Timed throughput runs after one untimed warm-up run; the median is reported (default: ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--cold",
      description = "Drop the file's pages from the page cache (fdatasync, then posix_fadvise DONTNEED) before each pass, so that reads come from the disk.")
  boolean cold;

  @Option(names = "--pump-reads", defaultValue = "IO_URING", paramLabel = "PATH",
      description = "How the host's pump reads: ${COMPLETION-CANDIDATES}; IO_URING falls back to FILE_CHANNEL where io_uring does not work (default: ${DEFAULT-VALUE}).")
  IoRequestPump.ReadPath pumpReads;

  @Option(names = "--dir", paramLabel = "DIR", description = "Write (and keep) the file here; default a temporary directory.")
  Path dir;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON to this file.")
  Path json;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    check("--size", size, IoBench.PAGE, Long.MAX_VALUE);
    check("--bytes", bytes, 1, Integer.MAX_VALUE);
    if (bytes > size) {
      throw InputException.of("--bytes", bytes + " is more than the --size of " + size,
          "pass a --bytes of at most --size (vyre bench io --help)");
    }
    check("--round-trips", roundTrips, 1, 100_000_000);
    check("--in-flight", inFlight, 1, IoBench.RING_SLOTS);
    check("--runs", runs, 1, 1000);
    OutputFiles.requireWritable("--json", json);
    Map<String, Object> results = IoBench.run(new IoBench.Settings(backendOption.backend, backendOption.verbose, size, bytes,
        roundTrips, inFlight, runs, cold, pumpReads, dir), out, System.err);
    BenchResults.print(out, results);
    BenchResults.writeJson(json, results);
    return 0;
  }

  private static void check(String option, long value, long least, long most) {
    if (value < least || value > most) {
      throw InputException.of(option, value + " is outside " + least + ".." + most,
          "pass a value in that range (vyre bench io --help)");
    }
  }
}
