package dev.vyre.cuda.graph;

import dev.vyre.cuda.internal.Releases;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelTopologyDecision;
import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.frontier.Afforest;
import dev.vyre.graph.frontier.AfforestPhase;
import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierCalibration;
import dev.vyre.graph.frontier.FrontierEngine;
import dev.vyre.graph.frontier.FrontierEngines;
import dev.vyre.graph.frontier.FrontierLevel;
import dev.vyre.graph.frontier.FrontierOptions;
import dev.vyre.graph.frontier.FrontierPolicy;
import dev.vyre.graph.frontier.FrontierResidency;
import dev.vyre.graph.frontier.FrontierRun;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The CUDA frontier engine (docs/FRONTIER.md): one cooperative launch a traversal, levels (or
 * Afforest's phases) advancing on the device. It keeps its kernel, its buffers (grown, never
 * shrunk) and the last graph's copy between runs, so a benchmark's runs over one graph upload it
 * once; close frees them all. The per-level-launch baseline ({@link
 * FrontierOptions#launchPerLevel()}) runs the same level code one launch a level, deciding on the
 * host with {@link FrontierPolicy}; its run's and levels' nanos are host time (launch,
 * synchronize, reading the counter back), the cost that baseline pays. Runs are serial: the
 * methods hold the engine's lock.
 */
final class CudaFrontierEngine implements FrontierEngine {

  /** Levels the device's log holds before it wraps: FrontierResidency's level-log bytes. */
  static final int LOG_LEVELS = 65_536;
  private static final long PROBE_EDGES = 4L << 20;

  /** What the graph buffers hold: the caller's graph as read (out-edges, in-edges) and where. */
  private record GraphCopy(CsrGraph out, CsrGraph in, FrontierResidency.Placement placement) {}

  private record GraphPointers(long row, long col, long inRow, long inCol) {}

  private final FrontierKernel kernel;
  private final DeviceBuffers buffers;
  private final ResidencyPlans plans = new ResidencyPlans();
  private final long defaultBudget;
  private GraphCopy uploaded;
  private GraphPointers graphPointers;
  private boolean closed;

  CudaFrontierEngine() {
    kernel = new FrontierKernel();
    try {
      buffers = new DeviceBuffers(kernel.driver());
      defaultBudget = kernel.driver().freeDeviceMemory();
    } catch (RuntimeException | Error e) {
      kernel.close();
      throw e;
    }
  }

  @Override
  public String backend() {
    return "cuda";
  }

  @Override
  public synchronized FrontierRun bfs(CsrGraph graph, int source, FrontierOptions options) {
    FrontierEngines.requireSource(graph, source);
    enter();
    CsrGraph in = graph.undirected() ? graph : graph.transpose();
    return run(FrontierAlgorithm.BFS, graph, in, source, options);
  }

  @Override
  public synchronized FrontierRun afforest(CsrGraph graph, FrontierOptions options) {
    FrontierEngines.requireAfforestOptions(options);
    enter();
    CsrGraph symmetric = graph.undirected() ? graph : graph.symmetrized();
    int n = symmetric.vertexCount();
    long m = symmetric.edgeCount();
    FrontierResidency residency = plan(FrontierAlgorithm.AFFOREST, n, m, false, options);
    GraphPointers pointers = upload(new GraphCopy(symmetric, symmetric, residency.placement()));
    long parent = buffers.device("value", 4L * n);
    long state = buffers.device("state", FrontierLog.STATE_WORDS * Long.BYTES);
    long logBytes = (long) Afforest.PLAN.size() * FrontierLog.LOG_WORDS * Long.BYTES;
    long log = buffers.device("log", logBytes);
    // Afforest reads the graph, the parents, queue 0 (its hub list), the state and the log; no
    // bitmaps, second queue, decision inputs or calibration.
    FrontierKernelParams params = new FrontierKernelParams(pointers.row(), pointers.col(), pointers.inRow(),
        pointers.inCol(), parent, 0, buffers.device("queue0", 4L * (m / (FrontierLog.HUB_DEGREE + 1))), 0, 0, state,
        log, 0, n, m, 0, residency.requiredBytes(), residency.budgetBytes(), 4L * n, 0, -1,
        FrontierKernelParams.AFFOREST, 0, Afforest.PLAN.size(), 0, 0);
    // The kernel adds its counts to zeroed phase entries and its hub count to a zeroed state word.
    kernel.driver().memset(state, 0, FrontierLog.STATE_WORDS * Long.BYTES);
    kernel.driver().memset(log, 0, logBytes);
    kernel.runAfforest(params);
    long[] words = kernel.readLongs(state, FrontierLog.STATE_WORDS);
    long phases = words[FrontierLog.STATE_LEVELS];
    List<AfforestPhase> decoded = FrontierLog.decodePhases(kernel.readLongs(log, phases * FrontierLog.LOG_WORDS),
        phases);
    return new FrontierRun(FrontierAlgorithm.AFFOREST, backend(), kernel.readInts(parent, n), new int[0], List.of(),
        decoded, words[FrontierLog.STATE_T_END] - words[FrontierLog.STATE_T_START], residency, Optional.empty());
  }

  @Override
  public synchronized FrontierRun labelPropagation(CsrGraph graph, FrontierOptions options) {
    enter();
    CsrGraph symmetric = graph.undirected() ? graph : graph.symmetrized();
    return run(FrontierAlgorithm.LABEL_PROPAGATION, symmetric, symmetric, 0, options);
  }

  /** The memory plan of a run, remembered for the next run of the same shape on this device. */
  private FrontierResidency plan(FrontierAlgorithm algorithm, int n, long m, boolean transposed,
      FrontierOptions options) {
    return plans.plan(new ResidencyPlans.Key(kernel.device().name() + " #" + kernel.device().ordinal(), algorithm, n,
        m, transposed, options.memoryBudgetBytes().orElse(defaultBudget)));
  }

  /** The device's answers of the decision port to {@code rows} (see {@link PolicyRows}), for the agreement test. */
  synchronized long[] decideOnDevice(long[] rows) {
    enter();
    long count = rows.length / PolicyRows.IN_WORDS;
    long in = buffers.device("decide-in", (long) rows.length * Long.BYTES);
    long out = buffers.device("decide-out", count * PolicyRows.OUT_WORDS * Long.BYTES);
    kernel.writeLongs(in, rows);
    kernel.decideBatch(in, out, count);
    return kernel.readLongs(out, count * PolicyRows.OUT_WORDS);
  }

  /** Runs that reused a memory plan made by an earlier run. */
  synchronized long plansReused() {
    return plans.reused();
  }

  private void enter() {
    if (closed) {
      throw PipelineException.closed("the CUDA frontier engine", "open another engine");
    }
    kernel.enter();
  }

  private FrontierRun run(FrontierAlgorithm algorithm, CsrGraph out, CsrGraph in, int source, FrontierOptions options) {
    int n = out.vertexCount();
    long m = out.edgeCount();
    boolean bfs = algorithm == FrontierAlgorithm.BFS;
    FrontierResidency residency = plan(algorithm, n, m, in != out, options);
    GraphPointers graph = upload(new GraphCopy(out, in, residency.placement()));
    long readback = (bfs ? 8L : 4L) * n;
    long words = FrontierKernelParams.bitmapWords(n);
    long value = buffers.device("value", 4L * n);
    long state = buffers.device("state", FrontierLog.STATE_WORDS * Long.BYTES);
    long queueBytes = 4L * FrontierLog.queueInts(n, m);
    long log = buffers.device("log", (long) LOG_LEVELS * FrontierLog.LOG_WORDS * Long.BYTES);
    long fitting = 0;
    for (MegakernelExecutionTopology topology : residency.fitting()) {
      fitting |= 1L << topology.ordinal();
    }
    FrontierKernelParams params = new FrontierKernelParams(graph.row(), graph.col(), graph.inRow(), graph.inCol(),
        value, bfs ? buffers.device("parent", 4L * n) : 0, buffers.device("queue0", queueBytes),
        buffers.device("queue1", queueBytes), buffers.device("bitmaps", 3 * words * Integer.BYTES), state, log,
        buffers.device("decisions", FrontierResidency.DECISION_TABLE_BYTES), n, m, words, residency.requiredBytes(),
        residency.budgetBytes(), readback, fitting,
        options.forcedTopology().map(t -> (long) t.ordinal()).orElse(-1L),
        bfs ? FrontierKernelParams.BFS : FrontierKernelParams.LABEL_PROPAGATION, source, LOG_LEVELS, PROBE_EDGES, 0);
    // The kernel starts from a zeroed state block (the barrier's arrival word, level 0's hub count, the
    // explored edges); a run that failed part way may have left it otherwise.
    kernel.driver().memset(state, 0, FrontierLog.STATE_WORDS * Long.BYTES);
    Traversal traversal = options.launchPerLevel()
        ? perLevel(params, new FrontierPolicy(n, m, residency, readback, FrontierLog.calibration(calibrate(params)),
            options.forcedTopology()))
        : onDevice(params, calibration -> new FrontierPolicy(n, m, residency, readback, calibration,
            options.forcedTopology()));
    int[] values = kernel.readInts(value, n);
    int[] parents = bfs ? kernel.readInts(params.parent(), n) : new int[0];
    return new FrontierRun(algorithm, backend(), values, parents, traversal.levels(), List.of(), traversal.nanos(),
        residency, Optional.of(traversal.calibration()));
  }

  private record Traversal(List<FrontierLevel> levels, long nanos, FrontierCalibration calibration) {}

  /** The traversal on the device; {@code policy} gives the run's policy for the calibration the kernel measured. */
  private Traversal onDevice(FrontierKernelParams params, Function<FrontierCalibration, FrontierPolicy> policy) {
    kernel.runCooperative(params);
    long[] state = kernel.readLongs(params.state(), FrontierLog.STATE_WORDS);
    long levels = state[FrontierLog.STATE_LEVELS];
    long[] log = kernel.readLongs(params.log(), (long) FrontierLog.entries(levels, LOG_LEVELS) * FrontierLog.LOG_WORDS);
    FrontierCalibration calibration = FrontierLog.calibration(state);
    return new Traversal(FrontierLog.decode(log, levels, LOG_LEVELS, policy.apply(calibration)),
        state[FrontierLog.STATE_T_END] - state[FrontierLog.STATE_T_START], calibration);
  }

  /** The persistent kernel up to its calibration: level 0's frontier in place and the costs measured. */
  private long[] calibrate(FrontierKernelParams params) {
    kernel.runCooperative(params.calibratingOnly());
    return kernel.readLongs(params.state(), FrontierLog.STATE_WORDS);
  }

  private Traversal perLevel(FrontierKernelParams params, FrontierPolicy policy) {
    long[] state = kernel.readLongs(params.state(), FrontierLog.STATE_WORDS);
    List<FrontierLevel> levels = new ArrayList<>();
    long[] counter = {state[FrontierLog.STATE_COUNTERS], state[FrontierLog.STATE_COUNTERS + 1]};
    MegakernelExecutionTopology previous = null;
    long total = 0;
    for (int level = 0; counter[0] != 0; level++) {
      MegakernelTopologyDecision decision = policy.decide(counter[0], counter[1], previous);
      long start = System.nanoTime();
      kernel.runLevel(params, level, decision.topology().ordinal(),
          decision.topology() == MegakernelExecutionTopology.FusedWave);
      long next = params.state() + (long) Long.BYTES * (FrontierLog.STATE_COUNTERS + 2 * ((level + 1) % 3));
      long[] read = kernel.readLongs(next, 2);
      long nanos = System.nanoTime() - start;
      levels.add(new FrontierLevel(level, counter[0], counter[1], decision, nanos));
      total += nanos;
      counter = read;
      previous = decision.topology();
    }
    return new Traversal(levels, total, FrontierLog.calibration(state));
  }

  /** The graph's arrays where the plan puts them, copied unless the buffers hold them already. */
  private GraphPointers upload(GraphCopy copy) {
    if (copy.equals(uploaded)) {
      return graphPointers;
    }
    uploaded = null;
    boolean resident = copy.placement() == FrontierResidency.Placement.RESIDENT;
    // The other placement's copies go: a graph left in host memory must not keep device memory.
    for (String name : List.of("row", "col", "in-row", "in-col")) {
      if (resident) {
        buffers.freeMapped(name);
      } else {
        buffers.free(name);
      }
    }
    long row = place("row", copy.out().rowOffsets(), resident);
    long col = place("col", copy.out().columnIndices(), resident);
    boolean transposed = copy.in() != copy.out();
    long inRow = transposed ? place("in-row", copy.in().rowOffsets(), resident) : row;
    long inCol = transposed ? place("in-col", copy.in().columnIndices(), resident) : col;
    graphPointers = new GraphPointers(row, col, inRow, inCol);
    uploaded = copy;
    return graphPointers;
  }

  private long place(String name, MemorySegment array, boolean resident) {
    if (resident) {
      long pointer = buffers.device(name, array.byteSize());
      if (array.byteSize() > 0) {
        kernel.driver().copyToDevice(pointer, array, array.byteSize());
      }
      return pointer;
    }
    DeviceBuffers.Mapped mapped = buffers.mapped(name, array.byteSize());
    MemorySegment.copy(array, 0, mapped.host(), 0, array.byteSize());
    return mapped.device();
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    Releases releases = new Releases();
    releases.add(kernel::close);
    releases.add(() -> {
      kernel.enter();
      buffers.close();
    });
    releases.releaseAll();
  }
}
