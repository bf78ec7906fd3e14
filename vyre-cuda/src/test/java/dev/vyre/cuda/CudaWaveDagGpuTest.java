package dev.vyre.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.vyre.reference.ReferenceBackend;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.spi.Availability;
import dev.vyre.runtime.spi.MegakernelBackend;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wave.WaveDag;
import dev.vyre.runtime.wave.WavePlan;
import dev.vyre.runtime.wave.WaveRun;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Wave DAGs on CUDA (docs/WAVES.md): layers released by the kernel's gate counters run in order,
 * a failure faults the same tasks as on the reference backend, and a figure: a chain of layers
 * released on the device against the host waiting for each layer and publishing the next.
 */
@Tag("gpu")
class CudaWaveDagGpuTest {

  /** args: 0 the trace resource, 1 the task's id, 2 non-zero to FAULT, 3 how long to take. As WaveRunTest's. */
  private static final int TRACE = 0x230;
  private static final UserOpcode TRACE_OPCODE = UserOpcode.both(TRACE, "wave-trace", slot -> {
    MemorySegment stamps = slot.resource(slot.arg(0));
    long id = Integer.toUnsignedLong(slot.arg(1));
    if (stamps == null || (2 * id + 3) * 4 > stamps.byteSize()) {
      return SlotLayout.STATUS_FAULT;
    }
    int start = Words.getAndAdd(stamps, 0, 1);
    for (int i = 0; i < slot.arg(3); i++) {
      Thread.onSpinWait();
    }
    int end = Words.getAndAdd(stamps, 0, 1);
    Words.set(stamps, 1 + 2 * id, start + 1);
    Words.set(stamps, 2 + 2 * id, end + 1);
    return slot.arg(2) == 0 ? SlotLayout.STATUS_DONE : SlotLayout.STATUS_FAULT;
  }, """
      const VyreResource* r = vyre_resource(a, args[0]);
      if (r == nullptr || (2ull * args[1] + 3ull) * 4ull > vyre_resource_bytes(r)) {
        status = VYRE_STATUS_FAULT;
      } else {
        unsigned* s = (unsigned*)r->ptr;
        unsigned start = atomicAdd(s, 1u);
        for (unsigned i = 0; i < args[3]; i++) __nanosleep(20);
        unsigned end = atomicAdd(s, 1u);
        s[1 + 2ull * args[1]] = start + 1u;
        s[2 + 2ull * args[1]] = end + 1u;
        status = args[2] == 0u ? VYRE_STATUS_DONE : VYRE_STATUS_FAULT;
      }
      """);

  @BeforeEach
  void requireCuda() {
    Availability availability = new CudaBackend().availability();
    assumeTrue(availability.usable(), () -> "no usable CUDA device, GPU test skipped: " + availability.detail());
  }

  /** What a run of one random DAG left: the failed layers, which tasks ran, DONE and FAULT counts; and whether layers overlapped. */
  private record Outcome(List<String> runs, boolean ordered) {}

  private static Outcome runRandomDags(MegakernelBackend backend) {
    List<String> runs = new ArrayList<>();
    boolean ordered = true;
    try (Megakernel kernel = Megakernel.builder().backend(backend).slots(512).tenants(2).observables(8)
        .singlePriority(Priority.NORMAL).userOpcode(TRACE_OPCODE).publishTimeout(Duration.ofSeconds(60)).bootstrap()) {
      for (long seed = 1; seed <= 8; seed++) {
        SplittableRandom random = new SplittableRandom(seed);
        int trace = kernel.allocateResource(4L * (2 * 4000 + 1), ResourcePlacement.DEVICE);
        WaveDag dag = new WaveDag();
        int tasks = 0;
        List<int[]> ids = new ArrayList<>();
        int waves = 2 + random.nextInt(12);
        for (int w = 0; w < waves; w++) {
          WaveDag.Wave wave = dag.wave("w" + w, TRACE);
          int n = random.nextInt(300);
          int[] waveIds = new int[n];
          for (int t = 0; t < n; t++) {
            waveIds[t] = tasks;
            // Seed 8 fails one task of its third wave.
            wave.task(trace, tasks++, seed == 8 && w == 2 && t == 0 ? 1 : 0, random.nextInt(8) == 0 ? random.nextInt(500) : 0);
          }
          ids.add(waveIds);
          for (int before = 0; before < w; before++) {
            if (random.nextInt(3) == 0) {
              wave.after(dag.waves().get(before));
            }
          }
        }
        WavePlan plan = dag.plan();
        long doneBefore = kernel.doneCount();
        long faultsBefore = kernel.stats().faults();
        WaveRun run = plan.publish(kernel);
        assertTrue(run.await(Duration.ofSeconds(60)), backend.name() + " seed " + seed + ": " + kernel.summary());
        int[] stamps = new int[2 * tasks];
        try (Arena arena = Arena.ofConfined()) {
          MemorySegment content = arena.allocate(4L * (2 * tasks + 1), 4);
          kernel.readResource(trace, 0, content);
          for (int i = 0; i < stamps.length; i++) {
            stamps[i] = Words.get(content, 1 + i);
          }
        }
        StringBuilder ran = new StringBuilder();
        long previousEnd = 0;
        for (int layer = 0; layer < plan.layers(); layer++) {
          long start = Long.MAX_VALUE;
          long end = 0;
          for (int w : plan.layerWaves(layer)) {
            for (int id : ids.get(w)) {
              ran.append(stamps[2 * id] != 0 ? '1' : '0');
              if (stamps[2 * id] != 0) {
                start = Math.min(start, stamps[2 * id]);
                end = Math.max(end, stamps[2 * id + 1]);
              }
            }
          }
          if (end != 0) {
            ordered &= previousEnd < start;
            previousEnd = end;
          }
        }
        runs.add("seed " + seed + ": failed layers " + Arrays.toString(run.failedLayers()) + ", done " + (kernel.doneCount() - doneBefore)
            + ", faults " + (kernel.stats().faults() - faultsBefore) + ", ran " + ran);
      }
    }
    return new Outcome(runs, ordered);
  }

  @Test
  void layersRunInOrderAndEndAsOnTheReferenceBackend() {
    Outcome gpu = runRandomDags(new CudaBackend());
    Outcome cpu = runRandomDags(new ReferenceBackend());
    assertTrue(gpu.ordered(), "every layer's tasks end before the next layer's start");
    assertTrue(cpu.ordered());
    assertEquals(cpu.runs(), gpu.runs(), "failed layers, tasks that ran, DONE and FAULT counts");
  }

  /**
   * The figure for docs/WAVES.md: a chain of layers of NOP tasks, published once and released by
   * the kernel, against a host that publishes a layer, waits for its last task and publishes the
   * next. Prints the median of three runs of each; asserts only that every task ran.
   */
  @Test
  void layersReleasedOnTheDeviceAgainstAHostRoundTripPerLayer() {
    int layers = 1000;
    SplittableRandom random = new SplittableRandom(1000);
    int[] mixed = new int[layers];
    for (int k = 0; k < layers; k++) {
      mixed[k] = 1 + random.nextInt(1024);
    }
    int[] single = new int[layers];
    Arrays.fill(single, 1);
    for (int slots : new int[] {65536, 4096}) {
      try (Megakernel kernel = Megakernel.builder().backend(new CudaBackend()).slots(slots).tenants(1).observables(8)
          .singlePriority(Priority.NORMAL).publishTimeout(Duration.ofSeconds(120)).bootstrap()) {
        for (int[] sizes : List.of(single, mixed)) {
          long tasks = Arrays.stream(sizes).asLongStream().sum();
          WavePlan plan = chain(sizes);
          deviceReleased(kernel, chain(Arrays.copyOf(sizes, 20)));
          hostRoundTrips(kernel, Arrays.copyOf(sizes, 20));
          long[] device = new long[3];
          long[] host = new long[3];
          for (int rep = 0; rep < 3; rep++) {
            long done = kernel.doneCount();
            device[rep] = deviceReleased(kernel, plan);
            assertEquals(tasks, kernel.doneCount() - done, "every task of the device-released run finished DONE");
            done = kernel.doneCount();
            host[rep] = hostRoundTrips(kernel, sizes);
            assertEquals(tasks, kernel.doneCount() - done);
          }
          Arrays.sort(device);
          Arrays.sort(host);
          System.out.printf("wave-bench: ring %d slots, %d layers of %s (%d tasks): device-released %.2f ms (%.2f us/layer), "
              + "host round trip per layer %.2f ms (%.2f us/layer), %.2fx; runs device %s host %s ns%n", slots, layers,
              sizes == single ? "1 task" : "1-1024 tasks", tasks, device[1] / 1e6, device[1] / 1e3 / layers, host[1] / 1e6,
              host[1] / 1e3 / layers, (double) host[1] / device[1], Arrays.toString(device), Arrays.toString(host));
        }
      }
    }
  }

  /** A chain of waves of {@code sizes[k]} NOP tasks each, wave k after wave k - 1: one layer each. */
  private static WavePlan chain(int[] sizes) {
    WaveDag dag = new WaveDag();
    WaveDag.Wave previous = null;
    for (int k = 0; k < sizes.length; k++) {
      WaveDag.Wave wave = dag.wave("layer" + k, Opcodes.NOP);
      for (int t = 0; t < sizes[k]; t++) {
        wave.task();
      }
      if (previous != null) {
        wave.after(previous);
      }
      previous = wave;
    }
    WavePlan plan = dag.plan();
    assertEquals(sizes.length, plan.layers());
    return plan;
  }

  /** Publish once, await the last task: nanoseconds. */
  private static long deviceReleased(Megakernel kernel, WavePlan plan) {
    long start = System.nanoTime();
    WaveRun run = plan.publish(kernel);
    assertTrue(run.await(Duration.ofSeconds(120)), kernel.summary());
    long elapsed = System.nanoTime() - start;
    assertArrayEquals(new int[0], run.failedLayers());
    return elapsed;
  }

  /** Each layer published as one batch (in chunks the partition takes), its last task awaited before the next: nanoseconds. */
  private static long hostRoundTrips(Megakernel kernel, int[] sizes) {
    TaskBatch batch = new TaskBatch(Math.min(4096, kernel.partitionSlots(Priority.NORMAL)));
    long start = System.nanoTime();
    for (int size : sizes) {
      long last = -1;
      for (int t = 0; t < size; t++) {
        if (batch.size() == batch.capacity()) {
          last = Megakernel.batchTicket(kernel.publish(batch), batch.size() - 1);
          batch.clear();
        }
        batch.add3(0, Opcodes.NOP, 0, 0, 0);
      }
      last = Megakernel.batchTicket(kernel.publish(batch), batch.size() - 1);
      batch.clear();
      assertTrue(kernel.await(last, Duration.ofSeconds(60)), kernel.summary());
    }
    return System.nanoTime() - start;
  }
}
