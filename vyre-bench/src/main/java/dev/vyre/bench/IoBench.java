package dev.vyre.bench;

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
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * What {@code vyre bench io} measures: the reads tasks ask for (docs/PROTOCOL.md, "Reads a task
 * asks for"), with {@link LoadOpcode} against the host reading the same ranges itself, in one run
 * on one backend. Writes a file of pseudo-random bytes and reads it once, so every figure reads
 * from the page cache (with {@code cold}, the file's pages are dropped from it before each pass
 * instead, so that the reads come from the disk); then, on a live kernel: the host's own
 * positional {@code FileChannel} reads into a HOST_MAPPED resource's host view (4 KiB one at a
 * time, and {@code bytes} at a time over the whole file), one 4 KiB load task at a time (publish,
 * then await), and loads of {@code bytes} over the whole file with {@code inFlight} of them in
 * flight, each into its own HOST_MAPPED resource. The pump reads on the path {@code pumpReads}
 * asks for, and the run prints the one it took. Every throughput run is checked: the pump served
 * one request per load and none failed, and sampled resources hold the file's bytes; a mismatch
 * ends the run with an {@link IllegalStateException}.
 */
public final class IoBench {

  /** The load opcode's number, in the user range. */
  public static final int LOAD_OPCODE = 0x7E01;
  /** The round trips' load size, and the least file size. */
  public static final int PAGE = 4096;
  /** The kernel's ring slots, and so the most loads in flight. */
  public static final int RING_SLOTS = 1024;
  private static final long SEED = 0x10BE_7C4L;
  private static final String FILE_NAME = "io-bench.bin";
  private static final Duration ROUND_TRIP_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration LOAD_TIMEOUT = Duration.ofSeconds(60);

  /**
   * One run's settings, the {@code vyre bench io} options of the same names.
   *
   * @param backend the backend to measure: {@code auto}, {@code reference} or {@code cuda}
   * @param verbose whether to say on the error stream which backend was chosen and why
   * @param size bytes of the file read, at least {@link #PAGE}
   * @param bytes bytes per load (and per host read) in the throughput runs, at most {@code size}
   * @param roundTrips measured 4 KiB load round trips (and host 4 KiB reads), after an untimed fifth as many
   * @param inFlight loads in flight in the throughput runs, each into its own resource, at most {@link #RING_SLOTS}
   * @param runs timed throughput runs after one untimed warm-up run; the median is reported
   * @param cold whether to drop the file's pages from the page cache before each pass
   * @param pumpReads how the host's pump reads
   * @param dir where to write (and keep) the file; null for a temporary directory, removed at the end
   */
  public record Settings(String backend, boolean verbose, long size, int bytes, int roundTrips, int inFlight, int runs,
      boolean cold, IoRequestPump.ReadPath pumpReads, Path dir) {

    /** Refuses settings that measure nothing. */
    public Settings {
      Objects.requireNonNull(backend, "backend");
      Objects.requireNonNull(pumpReads, "pumpReads");
      if (size < PAGE || bytes < 1 || bytes > size || roundTrips < 1 || inFlight < 1 || inFlight > RING_SLOTS || runs < 1) {
        throw new IllegalArgumentException("settings that measure nothing: size " + size + ", bytes " + bytes
            + ", round trips " + roundTrips + ", in flight " + inFlight + ", runs " + runs);
      }
    }
  }

  private final Settings settings;
  private final PrintStream err;
  /** The file {@code cold} drops from the page cache before each pass; null without it. */
  private Path coldFile;

  private IoBench(Settings settings, PrintStream err) {
    this.settings = settings;
    this.err = err;
  }

  /**
   * Writes the file, measures, printing a line per step to {@code out} (and, when verbose, the
   * backend's reason to {@code err}), and returns the measures in the order {@code vyre bench io}
   * reports them. A temporary directory is removed before this returns.
   */
  public static Map<String, Object> run(Settings settings, PrintStream out, PrintStream err) throws IOException {
    IoBench bench = new IoBench(settings, err);
    try (BenchWorkDirectory work = BenchWorkDirectory.open(settings.dir(), "vyre-bench-io", FILE_NAME)) {
      Path file = work.resolve(FILE_NAME);
      work.requireRoom(bench.settings.size(), file);
      out.printf("vyre bench io: writing %,d pseudo-random bytes to %s%n", bench.settings.size(), file);
      writeRandom(file, bench.settings.size());
      if (bench.settings.cold()) {
        out.println("vyre bench io: --cold: the file's pages are dropped from the page cache before each pass");
        bench.coldFile = file;
      } else {
        readAll(file);
      }
      return bench.measure(file, out);
    }
  }

  private Map<String, Object> measure(Path file, PrintStream out) throws IOException {
    Map<String, Object> results = new LinkedHashMap<>();
    results.put("date", Instant.now().toString());
    try (Megakernel kernel = Megakernel.builder().backend(settings.backend()).slots(RING_SLOTS).singlePriority(Priority.NORMAL)
        .userOpcode(LoadOpcode.of(LOAD_OPCODE)).publishTimeout(LOAD_TIMEOUT).bootstrap();
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      results.put("backend", kernel.backendName());
      results.put("device", kernel.describe());
      results.put("size", settings.size());
      results.put("bytes", settings.bytes());
      out.println("vyre bench io: " + kernel.describe());
      if (settings.verbose()) {
        err.println("vyre bench io: backend: " + kernel.backendReason());
      }
      results.put("in_flight", settings.inFlight());
      results.put("round_trips", settings.roundTrips());
      results.put("runs", settings.runs());
      results.put("cold", settings.cold());
      int page = kernel.allocateResource(PAGE, ResourcePlacement.HOST_MAPPED);
      int[] resources = new int[settings.inFlight()];
      for (int r = 0; r < settings.inFlight(); r++) {
        resources[r] = kernel.allocateResource(settings.bytes(), ResourcePlacement.HOST_MAPPED);
      }

      // The host alone, before the pump runs: what the pump's own reads can do at best.
      long[] hostPage = hostPageReads(channel, hostView(kernel, page));
      results.put("io_host_read_4k_p50_us", percentileMicros(hostPage, 0.50));
      results.put("io_host_read_4k_p99_us", percentileMicros(hostPage, 0.99));
      ByteBuffer hostBuffer = hostView(kernel, resources[0]);
      hostSequentialReads(channel, hostBuffer);
      double[] hostRates = new double[settings.runs()];
      for (int run = 0; run < settings.runs(); run++) {
        hostRates[run] = (double) settings.size() / hostSequentialReads(channel, hostBuffer);
      }
      Arrays.sort(hostRates);
      results.put("io_host_read_gb_per_s", hostRates[settings.runs() / 2]);
      out.printf("  host reads: 4 KiB p50 %.2f us; %,d-byte reads %.3f GB/s%n", percentileMicros(hostPage, 0.50), settings.bytes(),
          hostRates[settings.runs() / 2]);

      // The loads must not find the bytes the host's reads left: the checks below would pass on them.
      kernel.resource(page).fill((byte) 0);
      kernel.resource(resources[0]).fill((byte) 0);

      IoRequestPump pump = IoRequestPump.of(kernel, settings.pumpReads());
      int source = pump.open(file);
      results.put("io_pump_threads", pump.threads());
      results.put("io_pump_reader", pump.reader());
      out.printf("  pump: %d thread(s), %s%n", pump.threads(), pump.reader());
      DispatchMeasurements.RoundTrip trip = loadRoundTrips(kernel, source, page);
      verifyLoad(kernel, channel, page, ((long) (settings.roundTrips() + warmup() - 1) % (settings.size() / PAGE)) * PAGE, PAGE, "the last 4 KiB round trip");
      results.put("io_load_4k_round_trip_p50_us", trip.p50Micros());
      results.put("io_load_4k_round_trip_p99_us", trip.p99Micros());
      results.put("io_load_4k_round_trip_min_us", trip.minMicros());
      results.put("io_load_4k_publish_p50_us", trip.publishP50Micros());
      out.printf("  4 KiB load round trip: p50 %.2f us, p99 %.2f us, min %.2f us%n", trip.p50Micros(), trip.p99Micros(),
          trip.minMicros());

      // Run 0 is the untimed warm-up; each run maps its loads onto the resources differently, so a
      // resource still holding an earlier run's bytes fails the check.
      double[] loadRates = new double[settings.runs()];
      for (int run = 0; run <= settings.runs(); run++) {
        long nanos = loadRun(kernel, pump, channel, source, resources, run);
        if (run > 0) {
          loadRates[run - 1] = (double) settings.size() / nanos;
          out.printf("  load run %d: %.3f GB/s (%d in flight)%n", run, loadRates[run - 1], resources.length);
        }
      }
      Arrays.sort(loadRates);
      results.put("io_load_gb_per_s", loadRates[settings.runs() / 2]);
      results.put("io_load_best_gb_per_s", loadRates[settings.runs() - 1]);
      results.put("io_load_vs_host_read", loadRates[settings.runs() / 2] / hostRates[settings.runs() / 2]);
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
    return Math.max(1, settings.roundTrips() / 5);
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
    long pages = settings.size() / PAGE;
    int warmup = warmup();
    long[] nanos = new long[settings.roundTrips()];
    startPass();
    for (int i = 0; i < warmup + settings.roundTrips(); i++) {
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
    for (long offset = 0; offset < settings.size(); offset += settings.bytes()) {
      buffer.clear().limit((int) Math.min(settings.bytes(), settings.size() - offset));
      readFully(channel, buffer, offset);
    }
    return System.nanoTime() - start;
  }

  /** One 4 KiB load task at a time into {@code page}, published then awaited, offsets walking through the file. */
  private DispatchMeasurements.RoundTrip loadRoundTrips(Megakernel kernel, int source, int page) {
    long pages = settings.size() / PAGE;
    int warmup = warmup();
    long[] nanos = new long[settings.roundTrips()];
    long[] publishNanos = new long[settings.roundTrips()];
    int[] args = {source, page, 0, 0, PAGE};
    startPass();
    for (int i = 0; i < warmup + settings.roundTrips(); i++) {
      long offset = (i % pages) * PAGE;
      args[LoadOpcode.OFFSET_LO_ARG] = (int) offset;
      args[LoadOpcode.OFFSET_HI_ARG] = (int) (offset >>> 32);
      long start = System.nanoTime();
      long ticket = kernel.publish(0, Priority.NORMAL, LOAD_OPCODE, args);
      long published = System.nanoTime();
      if (!kernel.await(ticket, ROUND_TRIP_TIMEOUT)) {
        throw new IllegalStateException("4 KiB load " + i + " did not finish within " + ROUND_TRIP_TIMEOUT.toSeconds() + " s: "
            + kernel.summary() + "; pump: " + IoRequestPump.of(kernel, settings.pumpReads()).stats());
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
    long loads = (settings.size() + settings.bytes() - 1) / settings.bytes();
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
      long offset = i * settings.bytes();
      args[LoadOpcode.DESTINATION_ARG] = resources[(lane + run) % lanes];
      args[LoadOpcode.OFFSET_LO_ARG] = (int) offset;
      args[LoadOpcode.OFFSET_HI_ARG] = (int) (offset >>> 32);
      args[LoadOpcode.BYTES_ARG] = (int) Math.min(settings.bytes(), settings.size() - offset);
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
      long offset = i * settings.bytes();
      int resource = resources[(int) ((i % lanes + run) % lanes)];
      verifyLoad(kernel, channel, resource, offset, (int) Math.min(settings.bytes(), settings.size() - offset),
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
}
