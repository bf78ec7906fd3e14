package dev.vyre.spark;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.Backends;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.MegakernelBuilder;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.DfaTableCache;
import dev.vyre.scan.FileResult;
import dev.vyre.scan.HitList;
import dev.vyre.scan.KernelResourcePool;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import dev.vyre.scan.ScanSink;
import dev.vyre.scan.ScanSummary;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The one megakernel of a Spark executor, started by {@link VyreExecutorPlugin#init} and closed by
 * its shutdown, and the scans its tasks run on it. As in {@code vyre serve}, each task is a tenant
 * of the kernel: while it scans it holds one of {@code lanes} lanes, and its job's chunk and hit
 * buffers come from the kernel's {@link KernelResourcePool}, so what one task can have in flight (ring
 * slots, staging bytes) is capped by its job's buffers, and the lanes share the kernel evenly; a
 * task beyond them waits for a lane. Tasks that scan with the same patterns share a compiled table,
 * and a task takes the job a finished one left (its threads, reader and buffers) when it scans with
 * the same table the same way, rather than starting one of its own (docs/BENCHMARKS.md, "Twentieth
 * session: one executor per GPU on two H100s", has what that cost).
 */
public final class ExecutorKernel implements AutoCloseable {

  /** How long a shutdown waits for the scans in flight before it closes the kernel under them. */
  static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);

  private static volatile ExecutorKernel current;

  private final Megakernel kernel;
  private final KernelResourcePool pool;
  private final ScanOptions laneOptions;
  private final int lanes;
  private final Semaphore freeLanes;
  private final DfaTableCache tables = new DfaTableCache(16);
  /** Jobs between tasks, the latest first; at most {@code lanes}. */
  private final ArrayDeque<IdleJob> idle = new ArrayDeque<>();

  private record IdleJob(DfaTable table, boolean keepHits, ScanJob job) {}

  private ExecutorKernel(Megakernel kernel, int lanes) {
    this.kernel = kernel;
    this.pool = new KernelResourcePool(kernel);
    this.laneOptions = ScanOptions.forBackend(kernel.backendName());
    this.lanes = lanes;
    this.freeLanes = new Semaphore(lanes, true);
  }

  /**
   * Boots the executor's kernel on {@code builder}'s backend with ring slots for {@code lanes}
   * scans at once and makes it the one {@link #current()} returns.
   */
  static synchronized ExecutorKernel start(MegakernelBuilder builder, Backends.Choice choice, int lanes) {
    if (current != null) {
      throw InputException.of("spark.plugins", "a vyre kernel already runs in this JVM",
          "list dev.vyre.spark.VyrePlugin in spark.plugins once");
    }
    if (lanes < 1 || lanes > 64) {
      throw InputException.of(VyrePlugin.LANES, lanes + " lanes is outside 1..64", "set between 1 and 64 scans at once");
    }
    ScanOptions lane = ScanOptions.forBackend(choice.backend().name());
    int slots = (int) Math.min(SlotLayout.MAX_ENCODED_RING_SLOTS, (long) lane.ringSlots() * lanes);
    // On the reference backend the workers are the executor's cores; the tasks' threads mostly wait.
    Megakernel kernel = builder.backend(choice).slots(slots).singlePriority(Priority.NORMAL)
        .workers(Runtime.getRuntime().availableProcessors()).bootstrap();
    current = new ExecutorKernel(kernel, lanes);
    return current;
  }

  /**
   * The kernel of this executor.
   *
   * @throws InputException when no {@link VyrePlugin} started one: the session was not configured with it
   */
  public static ExecutorKernel current() {
    ExecutorKernel running = current;
    if (running == null) {
      throw InputException.of("spark.plugins", "no vyre kernel runs in this executor",
          "start the session with spark.plugins=" + VyrePlugin.class.getName() + " (docs/SPARK.md)");
    }
    return running;
  }

  public Megakernel kernel() {
    return kernel;
  }

  public int lanes() {
    return lanes;
  }

  /**
   * Scans {@code files} (whole files or ranges) for {@code patterns} in a lane of this kernel,
   * passing each file's matches to {@code sink} as {@link ScanJob#run(List, ScanSink)} does; waits
   * for a lane first. {@code cancelled} is asked at every match handed on: a Spark task that was
   * killed stops its scan there.
   */
  public ScanSummary scan(List<ScanFile> files, PatternSet patterns, boolean keepHits, ScanSink sink,
      BooleanSupplier cancelled) throws InterruptedException {
    DfaTable table = tables.compile(patterns);
    freeLanes.acquire();
    ScanJob job = null;
    boolean ended = false;
    try {
      job = takeJob(table, keepHits);
      ScanJob running = job;
      ScanSummary summary = job.run(files, new ScanSink() {
        @Override
        public boolean found(ScanFile file, HitList hits, long total) {
          if (cancelled.getAsBoolean()) {
            running.stop();
          }
          return sink.found(file, hits, total);
        }

        @Override
        public void finished(FileResult result) {
          sink.finished(result);
        }
      });
      ended = true;
      return summary;
    } finally {
      // A job whose run threw is not run again.
      if (job != null) {
        if (ended) {
          giveBack(new IdleJob(table, keepHits, job));
        } else {
          job.close();
        }
      }
      freeLanes.release();
    }
  }

  /** A job a finished task left for this table and way of scanning, or a new one. */
  private ScanJob takeJob(DfaTable table, boolean keepHits) {
    synchronized (idle) {
      for (Iterator<IdleJob> jobs = idle.iterator(); jobs.hasNext(); ) {
        IdleJob left = jobs.next();
        if (left.table == table && left.keepHits == keepHits) {
          jobs.remove();
          return left.job;
        }
      }
    }
    return new ScanJob(pool, table, laneOptions.withKeepHits(keepHits).fittingHitCounter(table));
  }

  /** Keeps a job for the next task; the oldest beyond {@link #lanes} closes. */
  private void giveBack(IdleJob job) {
    IdleJob oldest = null;
    synchronized (idle) {
      idle.addFirst(job);
      if (idle.size() > lanes) {
        oldest = idle.removeLast();
      }
    }
    if (oldest != null) {
      oldest.job.close();
    }
  }

  /**
   * Drains and closes: waits up to {@link #DRAIN_TIMEOUT} for the scans in flight to give their
   * lanes back, closes the jobs finished tasks left, then shuts the kernel down (a scan still
   * running then fails with the kernel closed).
   */
  @Override
  public void close() {
    synchronized (ExecutorKernel.class) {
      if (current == this) {
        current = null;
      }
    }
    boolean drained = false;
    try {
      drained = freeLanes.tryAcquire(lanes, DRAIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      closeIdleJobs();
      kernel.close();
    } finally {
      if (drained) {
        freeLanes.release(lanes);
      }
    }
  }

  private void closeIdleJobs() {
    while (true) {
      IdleJob left;
      synchronized (idle) {
        left = idle.pollFirst();
      }
      if (left == null) {
        return;
      }
      left.job.close();
    }
  }
}
