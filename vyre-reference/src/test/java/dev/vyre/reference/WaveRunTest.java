package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.planner.MegakernelFrontierWave;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.spi.SlotContext;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wave.WaveDag;
import dev.vyre.runtime.wave.WavePlan;
import dev.vyre.runtime.wave.WaveRun;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.FaultReason;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.WaveGateLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * Wave DAGs on a running kernel (docs/WAVES.md): every task of layer k finishes before any task of
 * layer k + 1 starts, observed through a trace the tasks write (a shared clock stamped when each
 * task starts and ends); a failure faults the layers after it; a gate naming no device table
 * faults. Backend-neutral ({@link TestBackends}): scripts/gpu-check.sh runs it on CUDA too.
 */
class WaveRunTest {

  /** args: 0 the trace resource, 1 the task's id, 2 non-zero to FAULT, 3 how long to take (spins). */
  static final int TRACE = 0x230;
  static final UserOpcode TRACE_OPCODE = UserOpcode.both(TRACE, "wave-trace", WaveRunTest::trace, """
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

  /** The Java side of {@link #TRACE_OPCODE}: word 0 the clock, words 1 + 2 id and 2 + 2 id the task's start and end, plus one. */
  private static int trace(SlotContext slot) {
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
  }

  /** Four reference workers even on a small machine, so that tasks of neighbouring layers could overlap were they not gated. */
  private static Megakernel kernel(int slots) {
    var backend = TestBackends.selected();
    return Megakernel.builder().backend(backend).workers(backend.name().equals("reference") ? 4 : 0).slots(slots).tenants(2).observables(8)
        .singlePriority(Priority.NORMAL).userOpcode(TRACE_OPCODE).publishTimeout(Duration.ofSeconds(30)).bootstrap();
  }

  /** Each task's start and end stamps (0: never ran), read back after the run. */
  private static int[] stamps(Megakernel kernel, int trace, int tasks) {
    int[] words = new int[2 * tasks];
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment content = arena.allocate(4L * (2 * tasks + 1), 4);
      kernel.readResource(trace, 0, content);
      for (int i = 0; i < words.length; i++) {
        words[i] = Words.get(content, 1 + i);
      }
    }
    return words;
  }

  /**
   * Random DAGs (forward edges, so acyclic), random bytes and a random budget (so the memory planner
   * splits layers), more tasks than the ring holds: every task runs once, each layer's tasks all end
   * before the next layer's start, and so every dependency holds.
   */
  @Property(tries = 30)
  void everyTaskOfALayerEndsBeforeAnyTaskOfTheNextStarts(@ForAll long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    try (Megakernel kernel = kernel(64)) {
      WaveDag dag = new WaveDag();
      int waves = 1 + random.nextInt(10);
      int tasks = 0;
      List<int[]> waveTasks = new ArrayList<>();
      int trace = kernel.allocateResource(4L * (2 * 400 + 1), ResourcePlacement.DEVICE);
      long largest = 0;
      for (int w = 0; w < waves; w++) {
        MegakernelFrontierWave bytes = new MegakernelFrontierWave(random.nextInt(100), random.nextInt(20), random.nextInt(50));
        WaveDag.Wave wave = dag.wave("w" + w, TRACE, bytes);
        largest = Math.max(largest, bytes.frontierBytes() + 4 * bytes.scratchBytes() + bytes.outputBytes());
        int n = random.nextInt(40);
        int[] ids = new int[n];
        for (int t = 0; t < n; t++) {
          ids[t] = tasks;
          wave.task(trace, tasks++, 0, random.nextInt(4) == 0 ? random.nextInt(20_000) : 0);
        }
        waveTasks.add(ids);
        for (int before = 0; before < w; before++) {
          if (random.nextInt(4) == 0) {
            wave.after(dag.waves().get(before));
          }
        }
      }
      WavePlan plan = dag.plan(largest + random.nextInt(400));
      WaveRun run = plan.publish(kernel);
      assertTrue(run.await(Duration.ofSeconds(60)), kernel.summary());
      assertArrayEquals(new int[0], run.failedLayers());
      int[] stamps = stamps(kernel, trace, tasks);
      long previousEnd = 0;
      for (int layer = 0; layer < plan.layers(); layer++) {
        long start = Long.MAX_VALUE;
        long end = 0;
        for (int w : plan.layerWaves(layer)) {
          for (int id : waveTasks.get(w)) {
            assertTrue(stamps[2 * id] != 0, "task " + id + " of wave " + w + " ran");
            start = Math.min(start, stamps[2 * id]);
            end = Math.max(end, stamps[2 * id + 1]);
          }
        }
        if (end != 0) {
          assertTrue(previousEnd < start, "layer " + layer + " started at " + start + " before the layers before it ended at " + previousEnd
              + " (plan " + plan + ")");
          previousEnd = end;
        }
      }
      assertEquals(tasks, kernel.doneCount());
    }
  }

  @Test
  void aTaskThatFailsFaultsEveryLaterLayerWithoutRunningIt() {
    try (Megakernel kernel = kernel(256)) {
      int trace = kernel.allocateResource(4L * (2 * 16 + 1), ResourcePlacement.DEVICE);
      WaveDag dag = new WaveDag();
      WaveDag.Wave first = dag.wave("first", TRACE).task(trace, 0, 0, 0).task(trace, 1, 0, 0);
      WaveDag.Wave beside = dag.wave("beside", TRACE).task(trace, 2, 0, 0);
      WaveDag.Wave failing = dag.wave("failing", TRACE).task(trace, 3, 0, 0).task(trace, 4, 1, 0).task(trace, 5, 0, 0).after(first);
      WaveDag.Wave gap = dag.wave("gap", TRACE).after(failing);
      dag.wave("last", TRACE).task(trace, 6, 0, 0).task(trace, 7, 0, 0).after(gap, beside);
      WaveRun run = dag.plan().publish(kernel);
      assertTrue(run.await(Duration.ofSeconds(30)), kernel.summary());
      assertArrayEquals(new int[] {1, 2, 3}, run.failedLayers(), "the failing layer, the empty one and the last");
      int[] stamps = stamps(kernel, trace, 8);
      for (int id = 0; id < 6; id++) {
        assertTrue(stamps[2 * id] != 0, "task " + id + " ran");
      }
      assertEquals(0, stamps[2 * 6], "the last layer never ran");
      assertEquals(0, stamps[2 * 7]);
      assertEquals(5, kernel.doneCount());
      assertEquals(3, kernel.stats().faults(), "the failing task, then both of the last layer");
      List<FaultReason> reasons = faultReasons(kernel);
      assertEquals(List.of(FaultReason.HANDLER_FAILED, FaultReason.WAVE_PREDECESSOR_FAILED, FaultReason.WAVE_PREDECESSOR_FAILED),
          reasons);
    }
  }

  /** A layer without tasks has no gate: the layer after it waits for the layer before it. */
  @Test
  void aLayerAfterAnEmptyLayerWaitsForTheLayerBeforeIt() {
    try (Megakernel kernel = kernel(256)) {
      int trace = kernel.allocateResource(4L * (2 * 16 + 1), ResourcePlacement.DEVICE);
      WaveDag dag = new WaveDag();
      WaveDag.Wave slow = dag.wave("slow", TRACE);
      for (int id = 0; id < 8; id++) {
        slow.task(trace, id, 0, 200_000);
      }
      WaveDag.Wave empty = dag.wave("empty", TRACE).after(slow);
      WaveDag.Wave after = dag.wave("after", TRACE).after(empty);
      for (int id = 8; id < 16; id++) {
        after.task(trace, id, 0, 0);
      }
      WaveRun run = dag.plan().publish(kernel);
      assertEquals(3, run.layers());
      assertTrue(run.await(Duration.ofSeconds(30)), kernel.summary());
      int[] stamps = stamps(kernel, trace, 16);
      int slowEnd = 0;
      int afterStart = Integer.MAX_VALUE;
      for (int id = 0; id < 8; id++) {
        slowEnd = Math.max(slowEnd, stamps[2 * id + 1]);
        afterStart = Math.min(afterStart, stamps[2 * (id + 8)]);
      }
      assertTrue(slowEnd < afterStart, "the last layer started at " + afterStart + ", before the first ended at " + slowEnd);
      assertArrayEquals(new int[0], run.failedLayers());
    }
  }

  /** The fault reasons of the ring's FAULT slots, in slot order. */
  private static List<FaultReason> faultReasons(Megakernel kernel) {
    MemorySegment ring = MemorySegment.ofArray(kernel.ringSnapshot());
    List<FaultReason> reasons = new ArrayList<>();
    for (int slot = 0; slot < kernel.slotCount(); slot++) {
      if (Words.get(ring, SlotLayout.statusWord(slot)) == SlotLayout.STATUS_FAULT) {
        reasons.add(FaultReason.of(Words.get(ring, SlotLayout.slotBase(slot) + SlotLayout.PRIORITY_WORD)));
      }
    }
    return reasons;
  }

  @Test
  void aGateThatNamesNoDeviceTableFaultsAndTablesAreReusedAcrossRuns() {
    try (Megakernel kernel = kernel(256)) {
      int mapped = kernel.allocateResource(64, ResourcePlacement.HOST_MAPPED);
      int tiny = kernel.allocateResource(8, ResourcePlacement.DEVICE);
      TaskBatch batch = new TaskBatch(3).priority(Priority.NORMAL)
          .addGated(WaveGateLayout.gate(mapped, 0), 0, TRACE, new int[0], 0, 0)
          .addGated(WaveGateLayout.gate(tiny, 1), 0, TRACE, new int[0], 0, 0)
          .addGated(WaveGateLayout.gate(4000, 0), 0, TRACE, new int[0], 0, 0);
      long first = kernel.publish(batch);
      assertTrue(kernel.await(Megakernel.batchTicket(first, 2), Duration.ofSeconds(30)), kernel.summary());
      assertEquals(List.of(FaultReason.WAVE_GATE_INVALID, FaultReason.WAVE_GATE_INVALID, FaultReason.WAVE_GATE_INVALID),
          faultReasons(kernel), "a mapped table, a table without the layer, no table");

      int trace = kernel.allocateResource(4L * 5, ResourcePlacement.DEVICE);
      WaveDag dag = new WaveDag();
      dag.wave("one", TRACE).task(trace, 0, 0, 0);
      dag.wave("two", TRACE).task(trace, 1, 0, 0).after(dag.waves().get(0));
      WaveRun one = dag.plan().publish(kernel);
      assertTrue(one.await(Duration.ofSeconds(30)));
      WaveRun two = dag.plan().publish(kernel);
      assertTrue(two.await(Duration.ofSeconds(30)));
      assertEquals(one.gateTable(), two.gateTable(), "a finished run's table serves the next");
      WaveRun empty = new WaveDag().plan().publish(kernel);
      assertTrue(empty.await(Duration.ZERO), "a DAG without tasks has finished at once");
      assertEquals(0, empty.layers());
      assertEquals(4, Words.get(MemorySegment.ofArray(kernel.controlSnapshot()), ControlLayout.DONE_COUNT));
    }
  }
}
