package dev.vyre.cli;

import dev.vyre.driver.error.InputException;
import dev.vyre.io.FileReads;
import dev.vyre.io.IoRequestPump;
import dev.vyre.io.LoadOpcode;
import dev.vyre.io.uring.LinuxFiles;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.spi.ResourcePlacement;
import java.io.EOFException;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
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
 * file's bytes; a mismatch ends the command with an error.
 */
@Command(name = "io", mixinStandardHelpOptions = true,
    description = "Loads tasks ask for (LoadOpcode through the IO queue and the host's pump) against the host reading the same file ranges itself.")
final class IoBenchCommand implements Callable<Integer> {

  /** The load opcode's number, in the user range. */
  static final int LOAD_OPCODE = 0x7E01;
  private static final int PAGE = 4096;
  private static final int RING_SLOTS = 1024;
  private static final long SEED = 0x10BE_7C4L;
  private static final String FILE_NAME = "io-bench.bin";
  private static final Duration ROUND_TRIP_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration LOAD_TIMEOUT = Duration.ofSeconds(60);

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

  /** The file {@code --cold} drops from the page cache before each pass; null without it. */
  private Path coldFile;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    check("--size", size, PAGE, Long.MAX_VALUE);
    check("--bytes", bytes, 1, Integer.MAX_VALUE);
    if (bytes > size) {
      throw InputException.of("--bytes", bytes + " is more than the --size of " + size,
          "pass a --bytes of at most --size (vyre bench io --help)");
    }
    check("--round-trips", roundTrips, 1, 100_000_000);
    check("--in-flight", inFlight, 1, RING_SLOTS);
    check("--runs", runs, 1, 1000);
    OutputFiles.requireWritable("--json", json);
    try (BenchWorkDirectory work = BenchWorkDirectory.open(dir, "vyre-bench-io", FILE_NAME)) {
      Path file = work.resolve(FILE_NAME);
      work.requireRoom(size, file);
      out.printf("vyre bench io: writing %,d pseudo-random bytes to %s%n", size, file);
      writeRandom(file, size);
      if (cold) {
        out.println("vyre bench io: --cold: the file's pages are dropped from the page cache before each pass");
        coldFile = file;
      } else {
        readAll(file);
      }
      Map<String, Object> results = measure(file, out);
      BenchResults.print(out, results);
      BenchResults.writeJson(json, results);
      return 0;
    }
  }

  private Map<String, Object> measure(Path file, PrintStream out) throws IOException {
    Map<String, Object> results = new LinkedHashMap<>();
    results.put("date", Instant.now().toString());
    try (Megakernel kernel = Megakernel.builder().backend(backendOption.backend).slots(RING_SLOTS).singlePriority(Priority.NORMAL)
        .userOpcode(LoadOpcode.of(LOAD_OPCODE)).publishTimeout(LOAD_TIMEOUT).bootstrap();
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      results.put("backend", kernel.backendName());
      results.put("device", kernel.describe());
      results.put("size", size);
      results.put("bytes", bytes);
      out.println("vyre bench io: " + kernel.describe());
      if (backendOption.verbose) {
        System.err.println("vyre bench io: backend: " + kernel.backendReason());
      }
      results.put("in_flight", inFlight);
      results.put("round_trips", roundTrips);
      results.put("runs", runs);
      results.put("cold", cold);
      int page = kernel.allocateResource(PAGE, ResourcePlacement.HOST_MAPPED);
      int[] resources = new int[inFlight];
      for (int r = 0; r < inFlight; r++) {
        resources[r] = kernel.allocateResource(bytes, ResourcePlacement.HOST_MAPPED);
      }

      // The host alone, before the pump runs: what the pump's own reads can do at best.
      long[] hostPage = hostPageReads(channel, hostView(kernel, page));
      results.put("io_host_read_4k_p50_us", percentileMicros(hostPage, 0.50));
      results.put("io_host_read_4k_p99_us", percentileMicros(hostPage, 0.99));
      ByteBuffer hostBuffer = hostView(kernel, resources[0]);
      hostSequentialReads(channel, hostBuffer);
      double[] hostRates = new double[runs];
      for (int run = 0; run < runs; run++) {
        hostRates[run] = (double) size / hostSequentialReads(channel, hostBuffer);
      }
      Arrays.sort(hostRates);
      results.put("io_host_read_gb_per_s", hostRates[runs / 2]);
      out.printf("  host reads: 4 KiB p50 %.2f us; %,d-byte reads %.3f GB/s%n", percentileMicros(hostPage, 0.50), bytes,
          hostRates[runs / 2]);

      // The loads must not find the bytes the host's reads left: the checks below would pass on them.
      kernel.resource(page).fill((byte) 0);
      kernel.resource(resources[0]).fill((byte) 0);

      IoRequestPump pump = IoRequestPump.of(kernel, pumpReads);
      int source = pump.open(file);
      results.put("io_pump_threads", pump.threads());
      results.put("io_pump_reader", pump.reader());
      out.printf("  pump: %d thread(s), %s%n", pump.threads(), pump.reader());
      DispatchMeasurements.RoundTrip trip = loadRoundTrips(kernel, source, page);
      verifyLoad(kernel, channel, page, ((long) (roundTrips + warmup() - 1) % (size / PAGE)) * PAGE, PAGE, "the last 4 KiB round trip");
      results.put("io_load_4k_round_trip_p50_us", trip.p50Micros());
      results.put("io_load_4k_round_trip_p99_us", trip.p99Micros());
      results.put("io_load_4k_round_trip_min_us", trip.minMicros());
      results.put("io_load_4k_publish_p50_us", trip.publishP50Micros());
      out.printf("  4 KiB load round trip: p50 %.2f us, p99 %.2f us, min %.2f us%n", trip.p50Micros(), trip.p99Micros(),
          trip.minMicros());

      // Run 0 is the untimed warm-up; each run maps its loads onto the resources differently, so a
      // resource still holding an earlier run's bytes fails the check.
      double[] loadRates = new double[runs];
      for (int run = 0; run <= runs; run++) {
        long nanos = loadRun(kernel, pump, channel, source, resources, run);
        if (run > 0) {
          loadRates[run - 1] = (double) size / nanos;
          out.printf("  load run %d: %.3f GB/s (%d in flight)%n", run, loadRates[run - 1], resources.length);
        }
      }
      Arrays.sort(loadRates);
      results.put("io_load_gb_per_s", loadRates[runs / 2]);
      results.put("io_load_best_gb_per_s", loadRates[runs - 1]);
      results.put("io_load_vs_host_read", loadRates[runs / 2] / hostRates[runs / 2]);
      if (!kernel.drain(LOAD_TIMEOUT)) {
        throw new IllegalStateException("the load tasks did not drain within " + LOAD_TIMEOUT.toSeconds() + " s: " + kernel.summary());
      }
      IoRequestPump.Stats stats = pump.stats();
      if (stats.failed() != 0 || kernel.stats().faults() != 0) {
        throw new IllegalStateException("loads failed: the pump failed " + stats.failed() + " of " + stats.completed()
            + " requests (last: " + stats.lastFailure() + "), " + kernel.stats().faults() + " tasks faulted");
      }
      results.put("io_pump_completed", stats.completed());
    }
    return results;
  }

  private int warmup() {
    return Math.max(1, roundTrips / 5);
  }

  /** The host view of a HOST_MAPPED resource, as a buffer the host's reads fill. */
  private static ByteBuffer hostView(Megakernel kernel, int handle) {
    MemorySegment view = kernel.resource(handle);
    if (view == null) {
      throw new IllegalStateException("HOST_MAPPED resource " + handle + " has no host view on " + kernel.backendName());
    }
    return view.asByteBuffer();
  }

  /** 4 KiB positional reads one at a time, at the offsets the round trips load; nanoseconds of each timed one. */
  private long[] hostPageReads(FileChannel channel, ByteBuffer buffer) throws IOException {
    long pages = size / PAGE;
    int warmup = warmup();
    long[] nanos = new long[roundTrips];
    startPass();
    for (int i = 0; i < warmup + roundTrips; i++) {
      long offset = (i % pages) * PAGE;
      long start = System.nanoTime();
      buffer.clear().limit(PAGE);
      readFully(channel, buffer, offset);
      long elapsed = System.nanoTime() - start;
      if (i >= warmup) {
        nanos[i - warmup] = elapsed;
      }
    }
    Arrays.sort(nanos);
    return nanos;
  }

  /** The whole file in reads of {@code --bytes}, one after the other; nanoseconds. */
  private long hostSequentialReads(FileChannel channel, ByteBuffer buffer) throws IOException {
    startPass();
    long start = System.nanoTime();
    for (long offset = 0; offset < size; offset += bytes) {
      buffer.clear().limit((int) Math.min(bytes, size - offset));
      readFully(channel, buffer, offset);
    }
    return System.nanoTime() - start;
  }

  /** One 4 KiB load task at a time into {@code page}, published then awaited, offsets walking through the file. */
  private DispatchMeasurements.RoundTrip loadRoundTrips(Megakernel kernel, int source, int page) {
    long pages = size / PAGE;
    int warmup = warmup();
    long[] nanos = new long[roundTrips];
    long[] publishNanos = new long[roundTrips];
    int[] args = {source, page, 0, 0, PAGE};
    startPass();
    for (int i = 0; i < warmup + roundTrips; i++) {
      long offset = (i % pages) * PAGE;
      args[LoadOpcode.OFFSET_LO_ARG] = (int) offset;
      args[LoadOpcode.OFFSET_HI_ARG] = (int) (offset >>> 32);
      long start = System.nanoTime();
      long ticket = kernel.publish(0, Priority.NORMAL, LOAD_OPCODE, args);
      long published = System.nanoTime();
      if (!kernel.await(ticket, ROUND_TRIP_TIMEOUT)) {
        throw new IllegalStateException("4 KiB load " + i + " did not finish within " + ROUND_TRIP_TIMEOUT.toSeconds() + " s: "
            + kernel.summary() + "; pump: " + IoRequestPump.of(kernel, pumpReads).stats());
      }
      long elapsed = System.nanoTime() - start;
      if (i >= warmup) {
        nanos[i - warmup] = elapsed;
        publishNanos[i - warmup] = published - start;
      }
    }
    return DispatchMeasurements.RoundTrip.measured(nanos, publishNanos);
  }

  /**
   * Loads of {@code --bytes} over the whole file, one per resource in flight at a time: the next
   * is published when the oldest has been awaited, into the resource that one filled. Run {@code run}
   * maps load {@code i} to resource {@code (i + run) % resources.length}. Returns the nanoseconds from
   * the first publish to the last load awaited, then checks the run (not timed).
   */
  private long loadRun(Megakernel kernel, IoRequestPump pump, FileChannel channel, int source, int[] resources, int run)
      throws IOException {
    int lanes = resources.length;
    long loads = (size + bytes - 1) / bytes;
    long[] tickets = new long[lanes];
    int[] args = {source, 0, 0, 0, 0};
    IoRequestPump.Stats before = pump.stats();
    startPass();
    long start = System.nanoTime();
    for (long i = 0; i < loads; i++) {
      int lane = (int) (i % lanes);
      if (i >= lanes && !kernel.await(tickets[lane], LOAD_TIMEOUT)) {
        throw notFinished(kernel, i - lanes);
      }
      long offset = i * bytes;
      args[LoadOpcode.DESTINATION_ARG] = resources[(lane + run) % lanes];
      args[LoadOpcode.OFFSET_LO_ARG] = (int) offset;
      args[LoadOpcode.OFFSET_HI_ARG] = (int) (offset >>> 32);
      args[LoadOpcode.BYTES_ARG] = (int) Math.min(bytes, size - offset);
      tickets[lane] = kernel.publish(0, Priority.NORMAL, LOAD_OPCODE, args);
    }
    // Tickets of one priority retire in order: the last one finished means all did.
    if (!kernel.await(tickets[(int) ((loads - 1) % lanes)], LOAD_TIMEOUT)) {
      throw notFinished(kernel, loads - 1);
    }
    long nanos = System.nanoTime() - start;
    IoRequestPump.Stats after = pump.stats();
    if (after.failed() != before.failed() || after.completed() - before.completed() != loads) {
      throw new IllegalStateException("load run " + run + ": the pump completed " + (after.completed() - before.completed()) + " of "
          + loads + " loads, " + (after.failed() - before.failed()) + " of them failed (last failure: " + after.lastFailure() + ")");
    }
    // The last load, the oldest still in its resource, one between, and one drawn at random.
    long window = Math.min(loads, lanes);
    long first = loads - window;
    long[] samples = {loads - 1, first, first + window / 2, first + new SplittableRandom(SEED + run).nextLong(window)};
    for (long i : samples) {
      long offset = i * bytes;
      int resource = resources[(int) ((i % lanes + run) % lanes)];
      verifyLoad(kernel, channel, resource, offset, (int) Math.min(bytes, size - offset),
          "load " + i + " of run " + run + " (" + (run == 0 ? "warm-up" : "timed") + ")");
    }
    return nanos;
  }

  /** With {@code --cold}, drops the file's pages from the page cache, so that the pass reads from the disk. */
  private void startPass() {
    if (coldFile != null) {
      LinuxFiles.evictFromPageCache(coldFile);
    }
  }

  private static IllegalStateException notFinished(Megakernel kernel, long load) {
    return new IllegalStateException("load " + load + " did not finish within " + LOAD_TIMEOUT.toSeconds() + " s: "
        + kernel.summary() + "; pump: " + IoRequestPump.of(kernel).stats());
  }

  /** Fails unless resource {@code handle} starts with the file's {@code length} bytes at {@code offset}. */
  private static void verifyLoad(Megakernel kernel, FileChannel channel, int handle, long offset, int length, String what)
      throws IOException {
    byte[] expected = new byte[length];
    readFully(channel, ByteBuffer.wrap(expected), offset);
    byte[] actual = new byte[length];
    kernel.readResource(handle, 0, MemorySegment.ofArray(actual));
    int at = Arrays.mismatch(expected, actual);
    if (at >= 0) {
      throw new IllegalStateException(String.format("%s: resource %d differs from the file's %,d bytes at %,d, first at byte"
          + " %,d (0x%02x in the file, 0x%02x in the resource); the load finished without delivering them", what, handle, length,
          offset, at, expected[at], actual[at]));
    }
  }

  /** Reads until {@code buffer} is full, starting at file offset {@code offset}. */
  private static void readFully(FileChannel channel, ByteBuffer buffer, long offset) throws IOException {
    int wanted = buffer.remaining();
    int read = FileReads.readAt(channel, buffer, offset);
    if (read < wanted) {
      throw new EOFException("the file ends before byte " + (offset + read));
    }
  }

  /** {@code size} pseudo-random bytes (a fixed seed), in 1 MiB writes. */
  private static void writeRandom(Path file, long size) throws IOException {
    SplittableRandom random = new SplittableRandom(SEED);
    ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      long written = 0;
      while (written < size) {
        chunk.clear();
        while (chunk.hasRemaining()) {
          chunk.putLong(random.nextLong());
        }
        chunk.flip().limit((int) Math.min(chunk.capacity(), size - written));
        while (chunk.hasRemaining()) {
          written += channel.write(chunk);
        }
      }
    }
  }

  /** Reads the whole file once, so that every measurement reads it from the page cache (without {@code --cold}). */
  private static void readAll(Path file) throws IOException {
    ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      while (channel.read(chunk.clear()) >= 0) {
        // Only the page cache is wanted.
      }
    }
  }

  private static double percentileMicros(long[] sorted, double quantile) {
    return sorted[(int) (sorted.length * quantile)] / 1e3;
  }

  private static void check(String option, long value, long least, long most) {
    if (value < least || value > most) {
      throw InputException.of(option, value + " is outside " + least + ".." + most,
          "pass a value in that range (vyre bench io --help)");
    }
  }
}
