package dev.vyre.jmh;

import dev.vyre.runtime.IdleStrategy;
import dev.vyre.runtime.ring.KernelViews;
import dev.vyre.runtime.ring.RetireStep;
import dev.vyre.runtime.ring.RingPartition;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The retire step over one lap of a 65,536-slot ring whose statuses another thread stored DONE,
 * so that each status read misses this core's caches as it does when the GPU wrote the line: the
 * turn holder alone, or with {@code verifiers} threads verifying chunks ahead of it as publishers
 * waiting for room do (RetireStep.verifyAhead). What it measures is the host's side alone; on a
 * GPU the publishers share the cores with it. Verifier threads spin, so give it a core per thread
 * beside the holder's. The retire step is in {@code dev.vyre.runtime.ring}, which vyre-runtime's
 * module does not export: this runs from benchmarks.jar, on the class path.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class RetireAheadBenchmark {

  private static final int SLOTS = 65_536;
  private static final int LEVEL = 2;

  @Param({"0", "1", "3", "7"})
  public int verifiers;

  private Arena arena;
  private MemorySegment control;
  private MemorySegment ring;
  private RingPartition part;
  private RetireStep retire;
  private Thread[] verifierThreads;
  private volatile boolean running;
  /** Set while the holder retires a lap: the verifiers verify only then, as a waiting publisher does. */
  private volatile boolean lapOpen;

  @Setup(Level.Trial)
  public void start() {
    arena = Arena.ofShared();
    control = arena.allocate(ControlLayout.byteLength(0), 64);
    ring = arena.allocate(SlotLayout.ringByteLength(SLOTS), 64);
    part = new RingPartition(LEVEL, 0, SLOTS);
    RingPartition[] partitions = new RingPartition[ControlLayout.PRIORITY_LEVELS];
    for (int level = 0; level < partitions.length; level++) {
      partitions[level] = level == LEVEL ? part : new RingPartition(level, SLOTS, 0);
    }
    retire = new RetireStep(partitions, SLOTS, new KernelViews(control, ring, MemorySegment.ofArray(new long[0])));
    running = true;
    verifierThreads = new Thread[verifiers];
    for (int v = 0; v < verifiers; v++) {
      verifierThreads[v] = Thread.ofPlatform().daemon().name("verifier-" + v).start(() -> {
        IdleStrategy spin = IdleStrategy.busySpin();
        while (running) {
          if (!lapOpen || !retire.verifyAhead(part)) {
            spin.idle();
          }
        }
      });
    }
  }

  /** Publishes the next lap, and has another thread finish every task of it DONE. */
  @Setup(Level.Invocation)
  public void publishLap() throws InterruptedException {
    long first = part.tryReserve(SLOTS);
    for (int slot = 0; slot < SLOTS; slot++) {
      Words.setRelease(ring, SlotLayout.statusWord(slot), SlotLayout.STATUS_PUBLISHED);
    }
    part.commit(control, first, SLOTS);
    Thread kernel = Thread.ofPlatform().start(() -> {
      for (int slot = 0; slot < SLOTS; slot++) {
        Words.setRelease(ring, SlotLayout.statusWord(slot), SlotLayout.STATUS_DONE);
      }
    });
    kernel.join();
  }

  /** Retires the lap: 65,536 tickets. */
  @Benchmark
  public long retireLap() {
    lapOpen = true;
    while (part.retired.getVolatile() < part.committed.getVolatile()) {
      retire.retire(false);
    }
    lapOpen = false;
    return part.retired.getVolatile();
  }

  @TearDown(Level.Trial)
  public void stop() throws InterruptedException {
    running = false;
    for (Thread thread : verifierThreads) {
      thread.join();
    }
    arena.close();
  }
}
