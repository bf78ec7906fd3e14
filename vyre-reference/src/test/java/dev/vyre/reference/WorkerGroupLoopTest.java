package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.policy.MegakernelQueuePressure;
import dev.vyre.policy.adapt.LoopThread;
import dev.vyre.policy.adapt.QueueSample;
import dev.vyre.policy.adapt.WorkerGroupLoop;
import dev.vyre.policy.adapt.WorkerGroupPolicy;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The launch policy drives a running kernel's worker groups (docs/POLICY.md): shed groups claim
 * nothing, the loop sheds after a whole window of light samples and wakes at once under pressure,
 * and a kernel is sized at boot from its job's queue. Backend-neutral: scripts/gpu-check.sh runs it
 * on CUDA, where a group is a block.
 */
class WorkerGroupLoopTest {

  /** args: 0 a resource of one word per task, 1 the task's index: stores 1 + the worker group that ran it. */
  private static final int WHERE = 0x240;
  private static final UserOpcode WHERE_OPCODE = UserOpcode.both(WHERE, "where", slot -> {
    MemorySegment groups = slot.resource(slot.arg(0));
    String name = Thread.currentThread().getName();
    int group = Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
    Words.set(groups, slot.arg(1), group + 1);
    return SlotLayout.STATUS_DONE;
  }, """
      const VyreResource* r = vyre_resource(a, args[0]);
      if (r == nullptr || 4ull * args[1] + 4ull > vyre_resource_bytes(r)) {
        status = VYRE_STATUS_FAULT;
      } else {
        ((unsigned*)r->ptr)[args[1]] = blockIdx.x + 1u;
        status = VYRE_STATUS_DONE;
      }
      """);

  private static Megakernel kernel() {
    return Megakernel.builder().backend(TestBackends.selected()).slots(4096).tenants(1).workers(4)
        .singlePriority(Priority.NORMAL).userOpcode(WHERE_OPCODE).publishTimeout(Duration.ofSeconds(30)).bootstrap();
  }

  /** Runs {@code tasks} WHERE tasks and returns the worker group each ran on. */
  private static int[] runWhere(Megakernel kernel, int tasks) {
    int groups = kernel.allocateResource(4L * tasks, ResourcePlacement.DEVICE);
    TaskBatch batch = new TaskBatch(512);
    long last = -1;
    for (int t = 0; t < tasks; t++) {
      batch.add3(0, WHERE, groups, t, 0);
      if (batch.size() == batch.capacity() || t == tasks - 1) {
        last = Megakernel.batchTicket(kernel.publish(batch), batch.size() - 1);
        batch.clear();
      }
    }
    assertTrue(kernel.await(last, Duration.ofSeconds(30)), kernel.summary());
    int[] ranOn = new int[tasks];
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment copy = arena.allocate(4L * tasks, 4);
      kernel.readResource(groups, 0, copy);
      for (int t = 0; t < tasks; t++) {
        ranOn[t] = Words.get(copy, t) - 1;
      }
    }
    return ranOn;
  }

  @Test
  void shedGroupsClaimNothingAndWokenOnesClaimAgain() {
    try (Megakernel kernel = kernel()) {
      int groups = kernel.workerGroups();
      assertTrue(groups >= 2, "needs two worker groups, has " + groups);
      assertEquals(groups, kernel.activeWorkerGroups(), "every group is active at launch");
      // CUDA's express helper is warp 0 of block 1: keep two blocks so that it stays within the active ones.
      kernel.setActiveWorkerGroups(2);
      assertEquals(2, kernel.activeWorkerGroups());
      for (int group : runWhere(kernel, 20_000)) {
        assertTrue(group >= 0 && group < 2, "a task ran on shed group " + group);
      }
      kernel.setActiveWorkerGroups(groups);
      int[] ranOn = runWhere(kernel, 20_000);
      long unwritten = Arrays.stream(ranOn).filter(group -> group < 0).count();
      for (int group : ranOn) {
        // The counts and the summary say whether the tasks left unwritten faulted or never ran.
        assertTrue(group >= 0 && group < groups, () -> "every task ran, on some group: " + group + " (" + unwritten
            + " of 20000 unwritten; " + kernel.summary() + ")");
      }
    }
  }

  @Test
  void activeGroupsOutsideTheKernelsAreRefusedWithAFix() {
    try (Megakernel kernel = kernel()) {
      InputException zero = assertThrows(InputException.class, () -> kernel.setActiveWorkerGroups(0));
      assertTrue(zero.getMessage().contains("Fix:"), zero.getMessage());
      assertThrows(InputException.class, () -> kernel.setActiveWorkerGroups(kernel.workerGroups() + 1));
    }
  }

  @Test
  void aKernelIsSizedAtBootFromItsJobsQueue() {
    try (Megakernel kernel = kernel()) {
      WorkerGroupPolicy.Decision one = WorkerGroupLoop.sizeAtBoot(kernel, 1);
      assertEquals(1, one.activeGroups());
      assertEquals(1, kernel.activeWorkerGroups());
      WorkerGroupPolicy.Decision full = WorkerGroupLoop.sizeAtBoot(kernel, 1L << 20);
      assertEquals(kernel.workerGroups(), full.activeGroups());
      assertEquals(MegakernelQueuePressure.Saturated, full.recommendation().pressure());
      assertTrue(full.evidence().startsWith(kernel.workerGroups() + " of " + kernel.workerGroups() + " worker groups"), full.evidence());
    }
  }

  /** A scripted queue: light for the first phase, saturated for the second, then light again. */
  @Test
  void lightSamplesShedAfterAWholeWindowAndPressureWakesAtOnce() {
    try (Megakernel kernel = kernel()) {
      int groups = kernel.workerGroups();
      AtomicLong queue = new AtomicLong();
      List<WorkerGroupLoop.Change> changes = new ArrayList<>();
      WorkerGroupLoop loop = new WorkerGroupLoop(kernel, () -> new QueueSample(queue.get(), 0), WorkerGroupPolicy.standard(),
          new WorkerGroupLoop.Options(Duration.ofMillis(1), 5), changes::add);
      queue.set(0);
      for (int i = 0; i < 4; i++) {
        assertNull(loop.step(), "nothing is shed before the window is full");
      }
      WorkerGroupLoop.Change shed = loop.step();
      assertNotNull(shed);
      assertEquals(groups, shed.from());
      assertEquals(1, shed.to());
      assertEquals(1, kernel.activeWorkerGroups());
      queue.set(1L << 20);
      WorkerGroupLoop.Change woke = loop.step();
      assertNotNull(woke, "saturation wakes at once");
      assertEquals(groups, woke.to());
      assertEquals(groups, kernel.activeWorkerGroups());
      assertTrue(woke.line().startsWith("woke worker groups 1 -> " + groups + ": "), woke.line());
      assertEquals(List.of(shed, woke), changes);
      assertEquals(6, loop.samples());
      assertEquals(2, loop.changes());
    }
  }

  /** Queues that swing between light and heavy every sample never shed: no change flips back within a window. */
  @Test
  void aSwingingQueueChangesNothingWithinAWindow() {
    try (Megakernel kernel = kernel()) {
      long[] script = {0, 1L << 20};
      AtomicLong step = new AtomicLong();
      WorkerGroupLoop loop = new WorkerGroupLoop(kernel, () -> new QueueSample(script[(int) (step.getAndIncrement() % 2)], 0),
          WorkerGroupPolicy.standard(), new WorkerGroupLoop.Options(Duration.ofMillis(1), 5), change -> {});
      for (int i = 0; i < 100; i++) {
        loop.step();
      }
      assertEquals(0, loop.changes());
      assertEquals(kernel.workerGroups(), kernel.activeWorkerGroups());
    }
  }

  /** The loop on its own thread over the kernel's real telemetry: an idle kernel is shed, a burst of work still all runs. */
  @Test
  void theLoopOnItsThreadShedsAnIdleKernelAndAllWorkStillRuns() throws InterruptedException {
    try (Megakernel kernel = kernel()) {
      List<WorkerGroupLoop.Change> changes = java.util.Collections.synchronizedList(new ArrayList<>());
      try (WorkerGroupLoop loop = WorkerGroupLoop.start(kernel, new WorkerGroupLoop.Options(Duration.ofMillis(1), 5), changes::add)) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (kernel.activeWorkerGroups() != 1 && System.nanoTime() < deadline) {
          Thread.sleep(1);
        }
        assertEquals(1, kernel.activeWorkerGroups(), "an idle kernel keeps one group: " + changes);
        int[] ranOn = runWhere(kernel, 50_000);
        assertEquals(50_000, ranOn.length);
        for (int t = 0; t < ranOn.length; t++) {
          assertTrue(ranOn[t] >= 0, "task " + t + " ran: " + ranOn[t] + "; " + kernel.summary() + " " + kernel.stats());
        }
        assertNull(loop.failure());
        assertTrue(loop.samples() > 5);
        loop.close();
        // What its steps cost, as bench adapt reports it: every step counted, the slowest within the sum.
        LoopThread.Timing timing = loop.timing();
        assertEquals(loop.samples(), timing.steps());
        assertTrue(timing.firstStepNanos() > 0 && timing.firstStepNanos() <= timing.slowestStepNanos()
            && timing.slowestStepNanos() <= timing.busyNanos(), timing.line());
      }
    }
  }
}
