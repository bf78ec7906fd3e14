package dev.vyre.graph.reference;

import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierCalibration;
import dev.vyre.graph.frontier.FrontierLevel;
import dev.vyre.graph.frontier.FrontierPolicy;
import dev.vyre.graph.frontier.FrontierResidency;
import dev.vyre.graph.frontier.FrontierRun;
import dev.vyre.graph.frontier.LevelBreakdown;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One run, as every worker of the engine executes it (docs/FRONTIER.md): the level-0 frontier made
 * in parallel, the calibration, then level after level, each with the topology the policy decided
 * for it. The barrier's last arriver ends a level alone: it logs it, swaps the frontiers and decides
 * the next one. A fused phase runs on worker 0 alone, deciding after each level, while the others
 * wait at the barrier. Subclasses give the algorithm: the level-0 frontier, a push over some of one
 * vertex's edges, and a pull over one 64-vertex bitmap word.
 */
abstract class Traversal implements WorkerJob {

  /** Hybrid levels split the edges of vertices above this degree among all workers (a warp's work on CUDA). */
  static final int HEAVY_DEGREE = 32;
  /** A Hybrid level pulls once its frontier's edges exceed the unexplored edges / this (Beamer's alpha). */
  static final long HYBRID_ALPHA = 14;
  private static final int CALIBRATION_BARRIERS = 32;
  private static final long PROBE_EDGES = 4L << 20;
  /** The fused cost's probe: one worker needs fewer edges than all of them for a stable time. */
  private static final long FUSED_PROBE_EDGES = 256L << 10;
  // Dynamic claims: at most this many queue vertices or bitmap words, and about eight a worker.
  private static final int MAX_VERTEX_GRAIN = 256;
  private static final int MAX_WORD_GRAIN = 64;

  private final FrontierAlgorithm algorithm;
  final int vertices;
  private final int words;
  private final long edges;
  private final int workers;
  private final MemorySegment outOffsets;
  final MemorySegment outColumns;
  final MemorySegment inOffsets;
  final MemorySegment inColumns;
  /** Per vertex: the depth or the label, the run's result. */
  final int[] values;
  private final FrontierResidency residency;
  private final Optional<MegakernelExecutionTopology> forced;
  private final FrontierCalibration pinned;
  private final LevelBarrier barrier;
  private final WorkerContext[] contexts;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final AtomicLong cursor = new AtomicLong();
  private final List<FrontierLevel> log = new ArrayList<>();
  private final Runnable afterSetup = serial(() -> advance(false));
  private final Runnable markCalibrationStart = serial(() -> calibrationStart = System.nanoTime());
  private final Runnable markFusedStart = serial(this::markFusedStart);
  private final Runnable markProbeStart = serial(this::markProbeStart);
  private final Runnable begin = serial(this::begin);
  private final Runnable endGridLevel = serial(this::endGridLevel);
  private final Runnable afterFused = serial(() -> { });
  private final Runnable afterMarking = serial(this::marked);

  /** The queues and bitmaps. */
  final FrontierBuffers frontier;
  /** When each worker arrived at the running grid-wide level's barrier. */
  private final long[] arrivals;

  // Written by whoever runs alone (a barrier action, or worker 0 in a fused phase), read by all
  // after the barrier: the barrier orders them.
  /** The level running: 0 for the first. */
  int level;
  private long frontierVertices;
  private long frontierEdges;
  private MegakernelTopologyDecision decision;
  private MegakernelExecutionTopology topology;
  private long splitEdges;
  /** The out-edges of every vertex reached so far (the frontier edges summed up to the running level). */
  private long exploredEdges;
  private boolean hybridPull;
  private int grain;
  private boolean done;
  // What the workers read after a barrier to know what comes next, written only by barrier
  // actions: worker 0 changes the fields above in a fused phase while the others may still be
  // leaving the barrier that began it.
  private boolean finished;
  private boolean fused;
  private FrontierPolicy policy;
  private FrontierCalibration calibration;
  private long calibrationStart;
  private double barrierNanos;
  private long fusedStart;
  private double fusedPass;
  private long probeStart;
  private long runStart;
  private long levelStart;
  private long runNanos;
  // Where the grid-wide levels' time went (LevelBreakdown), kept by the barrier's action.
  private long gridLevels;
  private long skewNanos;
  private long actionNanos;
  /** When the last grid-wide level's action ended, read by each worker as it leaves the barrier. */
  private long releasedAt;

  /**
   * @param out the graph pushed along (and whose out-degrees count the frontier's edges)
   * @param in the graph pulled along: {@code out}'s reverse
   * @param values the result array, set up by {@link #setup}
   * @param marksOnPush whether {@link #setup} and {@link #push} mark the next frontier's bits
   *     ({@link FrontierBuffers})
   * @param pinned a calibration to use instead of measuring one, or null
   */
  Traversal(FrontierAlgorithm algorithm, CsrGraph out, CsrGraph in, int[] values, boolean marksOnPush, int workers,
      FrontierResidency residency, Optional<MegakernelExecutionTopology> forced, FrontierCalibration pinned) {
    this.algorithm = algorithm;
    this.vertices = out.vertexCount();
    this.edges = out.edgeCount();
    this.workers = workers;
    this.outOffsets = out.rowOffsets();
    this.outColumns = out.columnIndices();
    this.inOffsets = in.rowOffsets();
    this.inColumns = in.columnIndices();
    this.values = values;
    this.residency = residency;
    this.forced = forced;
    this.pinned = pinned;
    this.barrier = new LevelBarrier(workers);
    this.contexts = new WorkerContext[workers];
    for (int w = 0; w < workers; w++) {
      contexts[w] = new WorkerContext(w);
    }
    this.frontier = new FrontierBuffers(vertices, workers, marksOnPush);
    this.arrivals = new long[workers];
    this.words = frontier.words;
  }

  /** Sets up the vertices {@code [from, to)} (whole bitmap words) and queues level 0's frontier among them as the next frontier. */
  abstract void setup(WorkerContext me, int from, int to);

  /** Pushes from frontier vertex {@code u} along its edges {@code [from, to)} of {@link #outColumns}. */
  abstract void push(WorkerContext me, int u, long from, long to);

  /** {@link #push} for a fused level, which runs on one worker: plain reads and writes suffice. */
  abstract void pushAlone(WorkerContext me, int u, long from, long to);

  /** Pulls the vertices of bitmap word {@code word}; returns the next frontier's bitmap word they make. */
  abstract long pull(WorkerContext me, int word);

  /** Per vertex, the BFS parents; empty for components. */
  abstract int[] parents();

  @Override
  public final void work(int id) {
    WorkerContext me = contexts[id];
    try {
      setup(me, (int) Math.min(vertices, slice(words, id, workers) << 6),
          (int) Math.min(vertices, slice(words, id + 1, workers) << 6));
      me.flush(frontier.next);
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
    }
    barrier.await(afterSetup);
    if (finished) {
      return;
    }
    calibrate(me);
    while (!finished) {
      if (fused) {
        if (id == 0) {
          runFused(me);
        }
        barrier.await(afterFused);
      } else {
        long started = System.nanoTime();
        try {
          runLevel(me);
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        }
        long arrived = System.nanoTime();
        arrivals[id] = arrived;
        barrier.await(endGridLevel);
        long left = System.nanoTime();
        me.timeLevel(arrived - started, left - arrived, left - releasedAt);
      }
    }
  }

  @Override
  public final FrontierRun result(String backend) {
    WorkerJob.rethrow(failure.get());
    long work = 0;
    long wait = 0;
    long exit = 0;
    for (WorkerContext context : contexts) {
      work += context.workNanos;
      wait += context.waitNanos;
      exit += context.exitNanos;
    }
    return new FrontierRun(algorithm, backend, values, parents(), log, List.of(), runNanos, residency,
        Optional.ofNullable(calibration),
        Optional.of(new LevelBreakdown(gridLevels, workers, work, wait, skewNanos, actionNanos, exit)));
  }

  /** Queues {@code v} for the next level. */
  final void produce(WorkerContext me, int v) {
    me.add(frontier.next, v, rowEnd(v) - rowStart(v));
  }

  final long rowStart(int v) {
    return outOffsets.getAtIndex(ValueLayout.JAVA_LONG, v);
  }

  final long rowEnd(int v) {
    return outOffsets.getAtIndex(ValueLayout.JAVA_LONG, v + 1L);
  }

  /** The start of part {@code part} of {@code total} split into {@code parts} nearly equal parts. */
  static long slice(long total, int part, int parts) {
    return part * (total / parts) + Math.min(part, total % parts);
  }

  private void calibrate(WorkerContext me) {
    if (pinned == null) {
      barrier.await(markCalibrationStart);
      for (int k = 1; k < CALIBRATION_BARRIERS; k++) {
        barrier.await(null);
      }
      // The one-worker pass comes first: were it second, it would find the probe's edges cached by
      // the parallel pass and price fusing too cheap.
      barrier.await(markFusedStart);
      try {
        if (me.id == 0) {
          probe(me, 0, Math.min(edges, FUSED_PROBE_EDGES));
        }
      } catch (Throwable t) {
        failure.compareAndSet(null, t);
      }
      barrier.await(markProbeStart);
      try {
        long probed = Math.min(edges, PROBE_EDGES);
        probe(me, slice(probed, me.id, workers), slice(probed, me.id + 1, workers));
      } catch (Throwable t) {
        failure.compareAndSet(null, t);
      }
    }
    barrier.await(begin);
  }

  /** A calibration pass: the probe's columns {@code [from, to)} and the state of their targets. */
  private void probe(WorkerContext me, long from, long to) {
    long sum = 0;
    for (long e = from; e < to; e++) {
      sum += values[outColumns.getAtIndex(ValueLayout.JAVA_INT, e)];
    }
    me.probeSink += sum;
  }

  private void markFusedStart() {
    barrierNanos = (double) (System.nanoTime() - calibrationStart) / CALIBRATION_BARRIERS;
    fusedStart = System.nanoTime();
  }

  private void markProbeStart() {
    fusedPass = System.nanoTime() - fusedStart;
    probeStart = System.nanoTime();
  }

  private void begin() {
    if (pinned != null) {
      calibration = pinned;
    } else {
      double pass = System.nanoTime() - probeStart;
      calibration = new FrontierCalibration(barrierNanos, perEdge(pass, PROBE_EDGES),
          perEdge(fusedPass, FUSED_PROBE_EDGES));
    }
    policy = policy(calibration);
    if (frontierVertices == 0) {
      done = true;
      return;
    }
    level = 0;
    decide(null);
    runStart = System.nanoTime();
    levelStart = runStart;
  }

  private FrontierPolicy policy(FrontierCalibration costs) {
    return new FrontierPolicy(vertices, edges, residency, residency.plan().outputBytes(), costs, forced);
  }

  /** A pass's time less the barrier that ended it, per edge of a probe of at most {@code probeEdges}. */
  private double perEdge(double pass, long probeEdges) {
    long probed = Math.min(edges, probeEdges);
    return probed == 0 ? 0.0 : Math.max(0.0, pass - barrierNanos) / probed;
  }

  private void runLevel(WorkerContext me) {
    int id = me.id;
    if (pulls() && !frontier.currentMarked) {
      // Every worker read the flag before this barrier, whose action sets it.
      frontier.markCurrent(id, workers);
      barrier.await(afterMarking);
    }
    switch (topology) {
      case WarpSparseFrontier -> {
        frontier.clearForPush(id, workers);
        pushEdgeSlice(me, 0);
      }
      case SparseFrontier -> {
        frontier.clearForPush(id, workers);
        pushChunks(me, Long.MAX_VALUE);
      }
      case HybridFrontier -> {
        if (hybridPull) {
          frontier.clearSpare(id, workers);
          pullWords(me, (int) slice(words, id, workers), (int) slice(words, id + 1, workers));
        } else {
          frontier.clearForPush(id, workers);
          pushEdgeSlice(me, HEAVY_DEGREE + 1);
          pushChunks(me, HEAVY_DEGREE);
        }
      }
      case DenseFrontier -> {
        frontier.clearSpare(id, workers);
        for (long start = cursor.getAndAdd(grain); start < words; start = cursor.getAndAdd(grain)) {
          pullWords(me, (int) start, (int) Math.min(words, start + grain));
        }
      }
      case BlockDenseFrontier -> {
        frontier.clearSpare(id, workers);
        pullWords(me, (int) slice(words, id, workers), (int) slice(words, id + 1, workers));
      }
      case FusedWave -> {
        // Worker 0 runs fused levels alone (runFused); the others wait at the barrier.
      }
    }
    me.flush(frontier.next);
  }

  /** Worker 0's fused phase: whole push levels alone, each decided by itself, while the decision stays FusedWave. */
  private void runFused(WorkerContext me) {
    try {
      do {
        frontier.clearForPush(0, 1);
        int[] items = frontier.current.items;
        for (int i = 0, size = frontier.current.size(); i < size; i++) {
          int u = items[i];
          pushAlone(me, u, rowStart(u), rowEnd(u));
        }
        me.flush(frontier.next);
        endLevel();
      } while (!done && topology == MegakernelExecutionTopology.FusedWave);
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
    }
  }

  /**
   * This worker's even share of the split edges (of every frontier vertex, or of those of degree
   * {@code minDegree} and more), found through the chunk table and walked vertex by vertex, chunk
   * after chunk in the split order, skipping chunks with no split edges.
   */
  private void pushEdgeSlice(WorkerContext me, int minDegree) {
    long lo = slice(splitEdges, me.id, workers);
    long hi = slice(splitEdges, me.id + 1, workers);
    if (lo >= hi) {
      return;
    }
    ChunkedQueue queue = frontier.current;
    int[] items = queue.items;
    int place = queue.chunkOf(lo);
    long edge = queue.firstEdge(place);
    int i = queue.position(place);
    int end = i + queue.length(place);
    while (edge < hi) {
      if (i == end) {
        // Edges remain (edge < hi <= the total), so a later chunk holds some.
        do {
          place++;
        } while (queue.firstEdge(place + 1) == edge);
        i = queue.position(place);
        end = i + queue.length(place);
      }
      int u = items[i++];
      long start = rowStart(u);
      long degree = rowEnd(u) - start;
      if (degree < minDegree) {
        continue;
      }
      if (edge + degree > lo) {
        push(me, u, start + Math.max(0, lo - edge), start + Math.min(degree, hi - edge));
      }
      edge += degree;
    }
  }

  /** Frontier vertices of degree at most {@code maxDegree}, claimed a chunk at a time. */
  private void pushChunks(WorkerContext me, long maxDegree) {
    int[] items = frontier.current.items;
    int size = frontier.current.size();
    for (long start = cursor.getAndAdd(grain); start < size; start = cursor.getAndAdd(grain)) {
      for (int i = (int) start, end = (int) Math.min(size, start + grain); i < end; i++) {
        int u = items[i];
        long from = rowStart(u);
        long to = rowEnd(u);
        if (to - from <= maxDegree) {
          push(me, u, from, to);
        }
      }
    }
  }

  private void pullWords(WorkerContext me, int from, int to) {
    long[] out = frontier.nextBits;
    for (int word = from; word < to; word++) {
      long bits = pull(me, word);
      if (bits != 0) {
        out[word] = bits;
      }
    }
  }

  /** The barrier action of a grid-wide level: {@link #endLevel}, and where the level's time went. */
  private void endGridLevel() {
    long started = System.nanoTime();
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (long arrival : arrivals) {
      first = Math.min(first, arrival);
      last = Math.max(last, arrival);
    }
    endLevel();
    releasedAt = System.nanoTime();
    gridLevels++;
    skewNanos += last - first;
    actionNanos += releasedAt - started;
  }

  /** Logs the level that ended, makes its output the next input and decides the next level. */
  private void endLevel() {
    long now = System.nanoTime();
    log.add(new FrontierLevel(level, frontierVertices, frontierEdges, decision, now - levelStart));
    learn(now - levelStart);
    advance(pulls());
    if (frontierVertices == 0) {
      done = true;
      runNanos = now - runStart;
      return;
    }
    level++;
    decide(topology);
    levelStart = now;
  }

  /** The workers have marked the input queue's vertices in its bitmap. */
  private void marked() {
    frontier.currentMarked = true;
  }

  /**
   * Refines the policy's costs from the level that just ran ({@link FrontierCalibration#refinedBy}); not with a
   * pinned calibration or a forced topology.
   */
  private void learn(long nanos) {
    if (pinned != null || forced.isPresent()) {
      return;
    }
    FrontierCalibration known = policy.calibration();
    FrontierCalibration refined = known.refinedBy(topology, frontierEdges, nanos);
    if (refined != known) {
      policy = policy(refined);
    }
  }

  /** Makes the level's output the next input and reads its size. */
  private void advance(boolean pulled) {
    frontier.advance(pulled);
    frontierVertices = frontier.current.size();
    frontierEdges = frontier.current.edges();
  }

  /** Whether the level decided pulls over the bitmap. */
  private boolean pulls() {
    return topology == MegakernelExecutionTopology.DenseFrontier
        || topology == MegakernelExecutionTopology.BlockDenseFrontier
        || topology == MegakernelExecutionTopology.HybridFrontier && hybridPull;
  }

  /**
   * Decides the level about to run, its frontier read by {@link #advance}. Every level passes here
   * once, in order, so the explored edges are exact: a Hybrid level pulls (Beamer's
   * direction-optimizing switch, as the CUDA kernel's {@code vf_hybrid_pull}) once its frontier's edges
   * exceed the unexplored edges / {@link #HYBRID_ALPHA}; BFS's unexplored edges are the stored edges
   * less the out-edges of every vertex reached (this level's frontier included), components compare
   * with all the stored edges.
   */
  private void decide(MegakernelExecutionTopology previous) {
    exploredEdges += frontierEdges;
    long unexplored = algorithm == FrontierAlgorithm.BFS ? edges - exploredEdges : edges;
    hybridPull = frontierEdges > unexplored / HYBRID_ALPHA;
    decision = policy.decide(frontierVertices, frontierEdges, previous);
    topology = decision.topology();
    cursor.set(0);
    switch (topology) {
      case WarpSparseFrontier -> splitEdges = frontier.current.prepareSplit(false);
      case HybridFrontier -> splitEdges = hybridPull ? 0 : frontier.current.prepareSplit(true);
      default -> splitEdges = 0;
    }
    boolean pull = pulls();
    long claims = 8L * workers;
    grain = Math.clamp((pull ? words : frontierVertices) / claims, 1, pull ? MAX_WORD_GRAIN : MAX_VERTEX_GRAIN);
  }

  /**
   * {@code action} as a barrier action: skipped after a failure, its own failure recorded (either
   * ends the run); then what the workers do next is published.
   */
  private Runnable serial(Runnable action) {
    return () -> {
      if (failure.get() == null) {
        try {
          action.run();
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        }
      }
      if (failure.get() != null) {
        done = true;
      }
      finished = done;
      fused = topology == MegakernelExecutionTopology.FusedWave;
    };
  }
}
