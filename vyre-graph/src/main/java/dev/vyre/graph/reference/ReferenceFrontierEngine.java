package dev.vyre.graph.reference;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierCalibration;
import dev.vyre.graph.frontier.FrontierEngine;
import dev.vyre.graph.frontier.FrontierEngines;
import dev.vyre.graph.frontier.FrontierOptions;
import dev.vyre.graph.frontier.FrontierResidency;
import dev.vyre.graph.frontier.FrontierRun;
import dev.vyre.runtime.ThreadEnds;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The reference frontier engine: persistent worker threads, parked between runs, that run every
 * level of a traversal (or every phase of Afforest) together and meet at a barrier between levels
 * (docs/FRONTIER.md). The
 * graph is read where it is, off-heap; the per-vertex state lives on the heap, whose free memory is
 * the default memory budget.
 */
public final class ReferenceFrontierEngine implements FrontierEngine {

  /** The backend's name. */
  public static final String NAME = "reference";

  private final Thread[] threads;
  private final FrontierCalibration pinned;
  private final AtomicInteger remaining = new AtomicInteger();
  private volatile WorkerJob job;
  private volatile int generation;
  private volatile boolean closed;
  private volatile Thread caller;

  /** An engine with one worker a processor. */
  public ReferenceFrontierEngine() {
    this(Runtime.getRuntime().availableProcessors());
  }

  /** An engine with {@code workers} worker threads. */
  public ReferenceFrontierEngine(int workers) {
    this(workers, null);
  }

  /**
   * @param pinned a calibration every run uses instead of measuring one (tests that must know the
   *     decisions), or null to measure
   */
  ReferenceFrontierEngine(int workers, FrontierCalibration pinned) {
    if (workers < 1) {
      throw InputException.of("reference frontier engine", workers + " workers were asked for", "give one worker or more");
    }
    this.pinned = pinned;
    this.threads = new Thread[workers];
    for (int w = 0; w < workers; w++) {
      int id = w;
      threads[w] = Thread.ofPlatform().name("vyre-frontier-" + NAME + "-" + w).daemon().unstarted(() -> serve(id));
    }
    for (Thread thread : threads) {
      thread.start();
    }
  }

  /** The number of worker threads. */
  public int workers() {
    return threads.length;
  }

  @Override
  public String backend() {
    return NAME;
  }

  @Override
  public synchronized FrontierRun bfs(CsrGraph graph, int source, FrontierOptions options) {
    checkRunnable(options);
    FrontierEngines.requireSource(graph, source);
    FrontierResidency residency = FrontierResidency.plan(FrontierAlgorithm.BFS, graph.vertexCount(), graph.edgeCount(),
        !graph.undirected(), budget(options));
    return execute(new BfsTraversal(graph, graph.transpose(), source, threads.length, residency,
        options.forcedTopology(), pinned));
  }

  @Override
  public synchronized FrontierRun afforest(CsrGraph graph, FrontierOptions options) {
    FrontierEngines.requireAfforestOptions(options);
    checkRunnable(options);
    CsrGraph undirected = graph.symmetrized();
    return execute(new AfforestRun(undirected, threads.length, plan(FrontierAlgorithm.AFFOREST, undirected, options)));
  }

  @Override
  public synchronized FrontierRun labelPropagation(CsrGraph graph, FrontierOptions options) {
    checkRunnable(options);
    CsrGraph undirected = graph.symmetrized();
    return execute(new ComponentsTraversal(undirected, threads.length,
        plan(FrontierAlgorithm.LABEL_PROPAGATION, undirected, options), options.forcedTopology(), pinned));
  }

  private static FrontierResidency plan(FrontierAlgorithm algorithm, CsrGraph undirected, FrontierOptions options) {
    return FrontierResidency.plan(algorithm, undirected.vertexCount(), undirected.edgeCount(), false, budget(options));
  }

  /** Stops the workers and waits for them; a second call does nothing. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (Thread thread : threads) {
      LockSupport.unpark(thread);
    }
    ThreadEnds.await(threads);
  }

  private void checkRunnable(FrontierOptions options) {
    if (closed) {
      throw PipelineException.closed("reference frontier engine", "open another with FrontierEngines.open(\"" + NAME
          + "\")");
    }
    if (options.launchPerLevel()) {
      throw PipelineException.invalidArgument("frontier run", "the per-level-launch baseline launches a CUDA kernel a"
          + " level, and the reference backend's workers have no launches", "use --launch-per-level with --backend cuda");
    }
  }

  /** The options' budget, else the heap's free memory: what the per-vertex state may take. */
  private static long budget(FrontierOptions options) {
    Runtime runtime = Runtime.getRuntime();
    return options.memoryBudgetBytes()
        .orElseGet(() -> Math.max(1, runtime.maxMemory() - (runtime.totalMemory() - runtime.freeMemory())));
  }

  /** Hands {@code run} to every worker and waits until all have finished it. */
  private FrontierRun execute(WorkerJob run) {
    caller = Thread.currentThread();
    job = run;
    remaining.set(threads.length);
    generation++;
    for (Thread thread : threads) {
      LockSupport.unpark(thread);
    }
    // The workers hold the run's state until they finish, so an interrupt cannot cut the wait short.
    boolean interrupted = false;
    while (remaining.get() != 0) {
      LockSupport.park(this);
      interrupted |= Thread.interrupted();
    }
    job = null;
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return run.result(NAME);
  }

  /** A worker: parked until a run is handed out, then its part of the run. */
  private void serve(int id) {
    int seen = 0;
    while (true) {
      while (generation == seen) {
        if (closed) {
          return;
        }
        LockSupport.park(this);
      }
      seen = generation;
      try {
        job.work(id);
      } finally {
        if (remaining.decrementAndGet() == 0) {
          LockSupport.unpark(caller);
        }
      }
    }
  }
}
