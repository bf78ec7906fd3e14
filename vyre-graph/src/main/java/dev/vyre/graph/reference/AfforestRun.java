package dev.vyre.graph.reference;

import dev.vyre.graph.CsrGraph;
import dev.vyre.graph.frontier.Afforest;
import dev.vyre.graph.frontier.AfforestPhase;
import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierResidency;
import dev.vyre.graph.frontier.FrontierRun;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Afforest on the reference engine's workers ({@link Afforest}): the phases of {@link Afforest#PLAN}
 * in order, every worker taking part in each and meeting the others at a barrier after it, whose
 * last arriver logs the phase. The vertex-parallel phases split the vertices evenly; linking the
 * rest claims chunks of vertices, as their edges are skewed; worker 0 alone samples.
 *
 * <p>The labels are a union-find forest in one int array. Within a phase, reads are opaque (a retry
 * sees a fresh value, never one the compiler kept) and a root is hooked only by a compare-and-set
 * from itself, so a stale read costs a retry and never a wrong link; the barrier between phases
 * orders everything.
 */
final class AfforestRun implements WorkerJob {

  private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
  /** Vertices a claim of {@code LINK_REST}: enough to amortize the claim, few enough to spread a skewed graph's edges. */
  private static final int REST_GRAIN = 1024;

  private final int vertices;
  private final int workers;
  private final MemorySegment offsets;
  private final MemorySegment columns;
  private final int[] labels;
  private final FrontierResidency residency;
  private final LevelBarrier barrier;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final AtomicLong cursor = new AtomicLong();
  private final AtomicLong phaseVertices = new AtomicLong();
  private final AtomicLong phaseEdges = new AtomicLong();
  private final List<AfforestPhase> phases = new ArrayList<>(Afforest.PLAN.size());
  private final Runnable endPhase = this::endPhase;
  // Written by worker 0 or a barrier's last arriver, read by all after the barrier, which orders them.
  private int largest = -1;
  private int largestSamples;
  private long start;
  private long clock;

  /** @param graph an undirected graph (a directed one's {@link CsrGraph#symmetrized()}) */
  AfforestRun(CsrGraph graph, int workers, FrontierResidency residency) {
    this.vertices = graph.vertexCount();
    this.workers = workers;
    this.offsets = graph.rowOffsets();
    this.columns = graph.columnIndices();
    this.labels = new int[vertices];
    this.residency = residency;
    this.barrier = new LevelBarrier(workers);
  }

  @Override
  public void work(int id) {
    int from = (int) Traversal.slice(vertices, id, workers);
    int to = (int) Traversal.slice(vertices, id + 1, workers);
    if (id == 0) {
      start = System.nanoTime();
      clock = start;
    }
    for (Afforest.Planned phase : Afforest.PLAN) {
      if (failure.get() == null) {
        try {
          switch (phase.step()) {
            case INIT -> init(from, to);
            case LINK_NEIGHBOUR -> linkNeighbour(from, to, phase.round());
            case COMPRESS, FINAL_COMPRESS -> compress(from, to);
            case SAMPLE -> {
              if (id == 0) {
                sample();
              }
            }
            case LINK_REST -> linkRest();
          }
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        }
      }
      barrier.await(endPhase);
    }
  }

  @Override
  public FrontierRun result(String backend) {
    WorkerJob.rethrow(failure.get());
    return new FrontierRun(FrontierAlgorithm.AFFOREST, backend, labels, new int[0], List.of(), phases, clock - start,
        residency, Optional.empty());
  }

  private void init(int from, int to) {
    for (int v = from; v < to; v++) {
      labels[v] = v;
    }
    phaseVertices.addAndGet(to - from);
  }

  private void linkNeighbour(int from, int to, int round) {
    long linked = 0;
    for (int v = from; v < to; v++) {
      long begin = rowStart(v);
      if (rowStart(v + 1) - begin > round) {
        link(v, columns.getAtIndex(ValueLayout.JAVA_INT, begin + round));
        linked++;
      }
    }
    phaseVertices.addAndGet(linked);
    phaseEdges.addAndGet(linked);
  }

  private void compress(int from, int to) {
    for (int v = from; v < to; v++) {
      int root = opaque(v);
      for (int up = opaque(root); up != root; up = opaque(root)) {
        root = up;
      }
      labels[v] = root;
    }
    phaseVertices.addAndGet(to - from);
  }

  private void sample() {
    Afforest.Sampled sampled = Afforest.mostFrequent(labels);
    largest = sampled.label();
    largestSamples = sampled.samples();
  }

  private void linkRest() {
    long restVertices = 0;
    long restEdges = 0;
    for (long claim = cursor.getAndAdd(REST_GRAIN); claim < vertices; claim = cursor.getAndAdd(REST_GRAIN)) {
      for (int u = (int) claim, end = (int) Math.min(vertices, claim + REST_GRAIN); u < end; u++) {
        long begin = rowStart(u) + Afforest.NEIGHBOR_ROUNDS;
        long last = rowStart(u + 1);
        if (begin >= last || opaque(u) == largest) {
          continue;
        }
        for (long e = begin; e < last; e++) {
          link(u, columns.getAtIndex(ValueLayout.JAVA_INT, e));
        }
        restVertices++;
        restEdges += last - begin;
      }
    }
    phaseVertices.addAndGet(restVertices);
    phaseEdges.addAndGet(restEdges);
  }

  /**
   * GAP's {@code Link}: climbs from u's and v's parents until they meet, hooking the larger root
   * under the smaller when it finds one (a compare-and-set that fails when another link hooked it
   * first, and the climb goes on from there).
   */
  private void link(int u, int v) {
    int a = opaque(u);
    int b = opaque(v);
    while (a != b) {
      int high = Math.max(a, b);
      int low = Math.min(a, b);
      int aboveHigh = opaque(high);
      if (aboveHigh == low || aboveHigh == high && INTS.compareAndSet(labels, high, high, low)) {
        return;
      }
      a = opaque(opaque(high));
      b = opaque(low);
    }
  }

  private int opaque(int v) {
    return (int) INTS.getOpaque(labels, v);
  }

  private long rowStart(int v) {
    return offsets.getAtIndex(ValueLayout.JAVA_LONG, v);
  }

  /** The barrier action: logs the phase that ended and readies the next one's claims. */
  private void endPhase() {
    long now = System.nanoTime();
    Afforest.Planned planned = Afforest.PLAN.get(phases.size());
    long counted = planned.step() == AfforestPhase.Step.SAMPLE ? largestSamples : phaseVertices.getAndSet(0);
    phases.add(new AfforestPhase(planned.step(), planned.round(), counted, phaseEdges.getAndSet(0), now - clock));
    clock = now;
    cursor.set(0);
  }
}
