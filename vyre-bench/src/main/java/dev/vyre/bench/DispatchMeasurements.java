package dev.vyre.bench;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** The measurements behind {@code vyre bench dispatch}; each one does real work on a live kernel. */
final class DispatchMeasurements {

  /**
   * One-task round trips: each trip's nanoseconds in the order measured ({@code nanos}), and of
   * them the part spent inside {@code publish} ({@code publishNanos}); {@code sortedNanos} and
   * {@code sortedPublishNanos} are the same, sorted once for the percentiles.
   */
  record RoundTrip(long[] nanos, long[] publishNanos, long[] sortedNanos, long[] sortedPublishNanos) {

    static RoundTrip measured(long[] nanos, long[] publishNanos) {
      long[] sorted = nanos.clone();
      long[] sortedPublish = publishNanos.clone();
      Arrays.sort(sorted);
      Arrays.sort(sortedPublish);
      return new RoundTrip(nanos, publishNanos, sorted, sortedPublish);
    }

    double p50Micros() {
      return percentileMicros(sortedNanos, 0.50);
    }

    double p99Micros() {
      return percentileMicros(sortedNanos, 0.99);
    }

    double minMicros() {
      return percentileMicros(sortedNanos, 0);
    }

    double publishP50Micros() {
      return percentileMicros(sortedPublishNanos, 0.50);
    }

    /** One line per trip, in the order measured: total and publish nanoseconds (for studying the tail). */
    String log() {
      StringBuilder text = new StringBuilder("# round trip ns, of which publish ns\n");
      for (int i = 0; i < nanos.length; i++) {
        text.append(nanos[i]).append(' ').append(publishNanos[i]).append('\n');
      }
      return text.toString();
    }

    private static double percentileMicros(long[] sorted, double quantile) {
      return sorted[(int) (sorted.length * quantile)] / 1e3;
    }
  }

  /**
   * Sustained throughput of tiny tasks; {@code publishSeconds} is when the last batch was published,
   * {@code finishedShare} the mean share of the tasks in flight that the kernel had finished and the
   * host not yet retired, {@code verifiedShare} the share of the tasks retired in chunks that
   * publishers waiting for room verified ahead of the retire step.
   */
  record Throughput(long tasks, double seconds, double millionsPerSecond, double publishSeconds, double finishedShare,
      double verifiedShare) {}

  private DispatchMeasurements() {}

  /** One NOP at a time: published, then awaited. */
  static RoundTrip roundTrip(Megakernel kernel, int samples) {
    return roundTrip(kernel, samples, Opcodes.NOP);
  }

  /**
   * One task at a time, published then awaited: a NOP (nothing to order before its status), or a
   * STORE_U32 into the first observable word (a result the host may read once it sees DONE).
   */
  static RoundTrip roundTrip(Megakernel kernel, int samples, int opcode) {
    // Long enough for the JIT's optimizing tier to compile publish and await (about 10,000 calls).
    int warmup = Math.max(20_000, samples / 5);
    long[] nanos = new long[samples];
    long[] publishNanos = new long[samples];
    Duration timeout = Duration.ofSeconds(10);
    for (int i = 0; i < warmup + samples; i++) {
      long start = System.nanoTime();
      long ticket = opcode == Opcodes.STORE_U32
          ? kernel.publish(0, Priority.NORMAL, Opcodes.STORE_U32, i, ControlLayout.OBSERVABLE_BASE)
          : kernel.publish(0, Priority.NORMAL, opcode);
      long published = System.nanoTime();
      if (!kernel.await(ticket, timeout)) {
        throw new IllegalStateException("round trip " + i + " did not finish within 10 s: " + kernel.summary());
      }
      long elapsed = System.nanoTime() - start;
      if (i >= warmup) {
        nanos[i - warmup] = elapsed;
        publishNanos[i - warmup] = published - start;
      }
    }
    return RoundTrip.measured(nanos, publishNanos);
  }

  /**
   * {@code publishers} threads publish batches of NOP and STORE_U32 tasks until {@code total} are
   * published; the clock stops when the last one has been retired by the host. While they publish,
   * every millisecond, it samples which side holds the ring: of the tasks in flight, the share the
   * kernel has finished but the host has not yet retired (near 1: the host's retire step limits;
   * near 0: the kernel, or the publishers, do).
   */
  static Throughput throughput(Megakernel kernel, long total, int publishers, int batchSize) throws InterruptedException {
    return throughput(kernel, total, publishers, batchSize, (batch, publisher, take) -> {
      int store = ControlLayout.OBSERVABLE_BASE + publisher % 8;
      for (int i = 0; i < take; i++) {
        if ((i & 1) == 0) {
          batch.add3(0, Opcodes.NOP, 0, 0, 0);
        } else {
          batch.add3(0, Opcodes.STORE_U32, i, store, 0);
        }
      }
    });
  }

  /** Fills a cleared batch with {@code take} tasks of publisher {@code publisher}. */
  @FunctionalInterface
  interface BatchFill {
    void fill(TaskBatch batch, int publisher, int take);
  }

  /** {@link #throughput(Megakernel, long, int, int)} with tasks of the caller's. */
  static Throughput throughput(Megakernel kernel, long total, int publishers, int batchSize, BatchFill fill)
      throws InterruptedException {
    AtomicLong remaining = new AtomicLong(total);
    Megakernel.Stats before = kernel.stats();
    Thread[] threads = new Thread[publishers];
    // A publisher refused by the kernel fails the run; it must not be measured as a run that published less.
    AtomicReference<Throwable> failed = new AtomicReference<>();
    long start = System.nanoTime();
    for (int p = 0; p < publishers; p++) {
      int publisher = p;
      threads[p] = Thread.ofPlatform().name("vyre-bench-publisher-" + p)
          .uncaughtExceptionHandler((thread, error) -> failed.compareAndSet(null, error)).start(() -> {
        TaskBatch batch = new TaskBatch(batchSize);
        while (true) {
          long take = Math.min(batchSize, remaining.getAndAdd(-batchSize));
          if (take <= 0) {
            return;
          }
          batch.clear();
          fill.fill(batch, publisher, (int) take);
          kernel.publish(batch);
        }
      });
    }
    double finishedShare = 0;
    int samples = 0;
    while (anyAlive(threads)) {
      Megakernel.Stats stats = kernel.stats();
      long finishedNotRetired = kernel.doneCount() - stats.done();
      long inFlight = stats.published() - stats.retired();
      if (inFlight > 0) {
        finishedShare += Math.clamp((double) finishedNotRetired / inFlight, 0, 1);
        samples++;
      }
      Thread.sleep(1);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    if (failed.get() instanceof RuntimeException error) {
      throw error;
    }
    if (failed.get() instanceof Error error) {
      throw error;
    }
    double publishSeconds = (System.nanoTime() - start) / 1e9;
    if (!kernel.drain(Duration.ofSeconds(120))) {
      throw new IllegalStateException("throughput run did not drain: " + kernel.summary());
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Megakernel.Stats after = kernel.stats();
    long retired = after.retired() - before.retired();
    return new Throughput(retired, seconds, retired / seconds / 1e6, publishSeconds, samples > 0 ? finishedShare / samples : Double.NaN,
        (double) (after.verifiedAhead() - before.verifiedAhead()) / retired);
  }

  private static boolean anyAlive(Thread[] threads) {
    for (Thread thread : threads) {
      if (thread.isAlive()) {
        return true;
      }
    }
    return false;
  }

  /**
   * What an idle megakernel costs: host CPU of the whole process and of the runtime's own threads
   * (named {@code vyre-*}; the rest is the JVM's JIT, GC and other threads), the busiest Java
   * thread, and the kernel's idle polls.
   */
  record Idle(double seconds, double hostCpuPercent, double vyreThreadsCpuPercent, String busiestThread,
      double heartbeatsPerSecond) {}

  /**
   * Lets the kernel go idle (1 s: the scout and the retire thread back off), then measures over
   * {@code window}: the process's CPU time as a share of one core (JIT and GC included), the same
   * for the runtime's threads alone, and how often the kernel's idle scout polled, from the
   * HEARTBEAT word it bumps once per idle poll. The split says whether a busy window was the
   * runtime (a spinning retire thread would be a defect) or the JVM finishing work of the runs.
   */
  static Idle idle(Megakernel kernel, Duration window) throws InterruptedException {
    Thread.sleep(1000);
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    // The process's window encloses the threads' (read first, read last), so the runtime's threads
    // can never seem to use more CPU than the process.
    long start = System.nanoTime();
    long cpu = os.getProcessCpuTime();
    Map<Long, Long> threadCpu = threadCpuTimes(threads);
    long beats = heartbeat(kernel);
    Thread.sleep(window.toMillis());
    long beatsSeen = (heartbeat(kernel) - beats) & 0xFFFFFFFFL;
    Map<Long, Long> threadCpuAfter = threadCpuTimes(threads);
    long cpuUsed = os.getProcessCpuTime() - cpu;
    long elapsed = System.nanoTime() - start;
    long vyreUsed = 0;
    long busiestUsed = -1;
    String busiest = "none";
    for (Map.Entry<Long, Long> after : threadCpuAfter.entrySet()) {
      long used = after.getValue() - threadCpu.getOrDefault(after.getKey(), 0L);
      ThreadInfo info = threads.getThreadInfo(after.getKey());
      String name = info == null ? "?" : info.getThreadName();
      if (name.startsWith("vyre-")) {
        vyreUsed += used;
      }
      if (used > busiestUsed) {
        busiestUsed = used;
        busiest = name + " " + String.format(Locale.ROOT, "%.1f", 100.0 * used / elapsed) + " %";
      }
    }
    return new Idle(elapsed / 1e9, 100.0 * cpuUsed / elapsed, 100.0 * vyreUsed / elapsed, busiest,
        beatsSeen / (elapsed / 1e9));
  }

  /** CPU time of every live Java thread, by id (threads the JVM cannot measure left out). */
  private static Map<Long, Long> threadCpuTimes(ThreadMXBean threads) {
    Map<Long, Long> times = new HashMap<>();
    for (long id : threads.getAllThreadIds()) {
      long time = threads.getThreadCpuTime(id);
      if (time >= 0) {
        times.put(id, time);
      }
    }
    return times;
  }

  private static long heartbeat(Megakernel kernel) {
    return Integer.toUnsignedLong(Words.get(MemorySegment.ofArray(kernel.controlSnapshot()), ControlLayout.HEARTBEAT));
  }

  /**
   * Same-run baselines of the CUDA backend (launch + synchronize, async launches, a CUDA Graph, the
   * ping-pong floor); none for the reference backend.
   */
  static Map<String, Object> backendBaselines(String backend, int samples) {
    String chosen = dev.vyre.runtime.Backends.select(backend).backend().name();
    if (!chosen.equals("cuda")) {
      return new LinkedHashMap<>();
    }
    return dev.vyre.cuda.CudaBaselines.measure(Math.max(1000, samples / 4), Math.max(10_000, samples));
  }

  /** Ratios of the megakernel against the baselines measured in the same run. */
  static void addRatios(Map<String, Object> results) {
    if (!results.containsKey("pingpong_floor_p50_us")) {
      return;
    }
    double p50 = (Double) results.get("round_trip_p50_us");
    results.put("ratio_round_trip_p50_over_floor", p50 / (Double) results.get("pingpong_floor_p50_us"));
    results.put("ratio_launch_sync_over_round_trip", (Double) results.get("launch_sync_p50_us") / p50);
    double throughput = (Double) results.get("throughput_mtasks_per_s");
    results.put("ratio_throughput_over_async_launch", throughput / (Double) results.get("async_launch_mtasks_per_s"));
    results.put("ratio_throughput_over_cuda_graph", throughput / (Double) results.get("cuda_graph_1000_nodes_mtasks_per_s"));
  }
}
