package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.MegakernelBuilder;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.ShutdownReport;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.DebugLogLayout;
import dev.vyre.runtime.wire.FaultReason;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.PackedSlotCodec;
import dev.vyre.runtime.wire.PackedSlotCodec.PackedOp;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Built-in opcode semantics, observed through the public host API. Backend-neutral: runs on the
 * reference backend here and on CUDA through scripts/gpu-check.sh ({@link TestBackends}).
 */
class BuiltinSemanticsTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  /** A task that yields until control word 171 is set. */
  private static final UserOpcode GATE = UserOpcode.both(0x102, "gate", slot -> Words.getAcquire(slot.control(), 171) == 0
      ? SlotLayout.STATUS_YIELD : SlotLayout.STATUS_DONE, "status = vyre_read(a, 171u) == 0u ? VYRE_STATUS_YIELD : VYRE_STATUS_DONE;");
  /** A task that yields arg0 times, then finishes. */
  private static final UserOpcode COUNTDOWN = UserOpcode.both(0x103, "countdown", slot -> {
    int left = slot.arg(0);
    if (left > 0) {
      slot.setArg(0, left - 1);
      return SlotLayout.STATUS_YIELD;
    }
    return SlotLayout.STATUS_DONE;
  }, "if (args[0] > 0u) { args[0] -= 1u; status = VYRE_STATUS_YIELD; }");
  private Megakernel kernel;

  private Megakernel start(UserOpcode... opcodes) {
    MegakernelBuilder builder = Megakernel.builder().backend(TestBackends.selected()).slots(64).tenants(2).observables(16)
        .singlePriority(Priority.NORMAL).workers(1);
    for (UserOpcode opcode : opcodes) {
      builder.userOpcode(opcode);
    }
    kernel = builder.bootstrap();
    return kernel;
  }

  @AfterEach
  void stop() {
    if (kernel != null) {
      kernel.close();
    }
  }

  private TaskResult run(Task task) throws Exception {
    return kernel.submit(task).get(10, java.util.concurrent.TimeUnit.SECONDS);
  }

  private long word(int index) {
    return Integer.toUnsignedLong(MemorySegment.ofArray(kernel.controlSnapshot()).get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, 4L * index));
  }

  @Test
  void storeAddLoadCompareSwapAndMemcpy() throws Exception {
    start();
    assertTrue(run(Task.of(Opcodes.STORE_U32, 7, 170)).isDone());
    assertTrue(run(Task.of(Opcodes.ATOMIC_ADD, 5, 170)).isDone());
    assertEquals(12, word(170));
    TaskResult load = run(Task.of(Opcodes.LOAD_U32, 170, 3));
    assertEquals(12, load.observable());
    assertEquals(12, kernel.observable(3));
    TaskResult cas = run(Task.of(Opcodes.COMPARE_SWAP, 5, 0, 99));
    assertEquals(0, cas.observable(), "COMPARE_SWAP stores the previous value at observable arg0");
    assertEquals(99, word(5));
    assertTrue(run(Task.of(Opcodes.MEMCPY, 170, 171, 1)).isDone());
    assertEquals(12, word(171));
    assertEquals(2, word(ControlLayout.METRICS_BASE + Opcodes.STORE_U32) + word(ControlLayout.METRICS_BASE + Opcodes.ATOMIC_ADD));
  }

  @Test
  void batchFenceBumpsEpochAndTagsObservableZero() throws Exception {
    start();
    TaskResult fence = run(Task.of(Opcodes.BATCH_FENCE, 3, 0xBEEF));
    assertEquals(1, word(ControlLayout.EPOCH));
    assertEquals(0xBEEF, fence.observable());
  }

  @Test
  void printfWritesRecordWithSlotBase() throws Exception {
    start();
    TaskResult printf = run(Task.of(Opcodes.PRINTF, 11, 12, 13));
    List<DebugLogLayout.DebugRecord> records = DebugLogLayout.tryRead(MemorySegment.ofArray(kernel.debugLogSnapshot()));
    assertEquals(List.of(new DebugLogLayout.DebugRecord(11, 12, 13, printf.slot() * SlotLayout.SLOT_WORDS)), records);
  }

  @Test
  void outOfRangeIndicesFaultAndWriteNothing() throws Exception {
    start();
    byte[] before = kernel.controlSnapshot();
    for (Task task : List.of(Task.of(Opcodes.STORE_U32, 1, 176), Task.of(Opcodes.ATOMIC_ADD, 1, -1),
        Task.of(Opcodes.LOAD_U32, 0, 16), Task.of(Opcodes.MEMCPY, 170, 175, 2), Task.of(Opcodes.COMPARE_SWAP, 16, 0, 1))) {
      TaskResult result = run(task);
      assertEquals(SlotStatus.FAULT, result.status(), task.toString());
      assertEquals(FaultReason.CONTROL_INDEX_OUT_OF_RANGE, result.fault());
    }
    byte[] after = kernel.controlSnapshot();
    for (int w = ControlLayout.OBSERVABLE_BASE; w < after.length / 4; w++) {
      assertEquals(before[4 * w], after[4 * w], "observable word " + w + " changed");
    }
    assertEquals(5, word(ControlLayout.FAULT_COUNT));
  }

  @Test
  void unauthorizedTenantFaultsWithoutRunning() throws Exception {
    start();
    kernel.setTenantAuthorized(1, false);
    TaskResult result = run(new Task(1, Priority.NORMAL, Opcodes.STORE_U32, new int[] {5, 170}));
    assertEquals(FaultReason.TENANT_UNAUTHORIZED, result.fault());
    assertEquals(0, word(170));
    assertEquals(0, word(ControlLayout.METRICS_BASE + Opcodes.STORE_U32), "an unauthorized slot is not metered");
  }

  @Test
  void packedSlotRunsEveryOpThatFits() throws Exception {
    start();
    int[] args = PackedSlotCodec.encode(new PackedOp(Opcodes.STORE_U32, new int[] {10, 170}), new PackedOp(Opcodes.ATOMIC_ADD, new int[] {5, 170}),
        new PackedOp(Opcodes.ATOMIC_ADD, new int[] {1, 171}), new PackedOp(Opcodes.ATOMIC_ADD, new int[] {2, 171}),
        new PackedOp(Opcodes.NOP, new int[0]));
    assertTrue(run(Task.of(Opcodes.PACKED_SLOT, args)).isDone());
    assertEquals(15, word(170));
    assertEquals(3, word(171));
    assertEquals(1, word(ControlLayout.METRICS_BASE + Opcodes.NOP), "the fifth op runs too (vyre stops at four)");
  }

  @Test
  void dfaStepWithoutResourcesAndUnknownUserOpcodesFaultWithReason() throws Exception {
    start();
    assertEquals(FaultReason.RESOURCE_OUT_OF_RANGE, run(Task.of(Opcodes.DFA_STEP, 0, 0)).fault(),
        "DFA_STEP runs (DfaStepOpcodeTest); with no resources registered its handles name nothing");
    assertEquals(FaultReason.UNKNOWN_OPCODE, run(Task.of(0x100, 0)).fault());
  }

  @Test
  void aTaskThatYieldsForeverHoldsUpNeitherOtherTasksNorShutdown() throws Exception {
    UserOpcode forever = UserOpcode.both(0x101, "forever", slot -> SlotLayout.STATUS_YIELD, "status = VYRE_STATUS_YIELD;");
    start(forever);
    long yielding = kernel.publish(0, Priority.NORMAL, 0x101);
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (word(ControlLayout.CONTINUATION_COUNT) == 0) {
      assertTrue(System.nanoTime() < deadline, "the yielding task never ran");
      Thread.sleep(1);
    }
    // Published behind it, so it retires only after it: watch its effect instead of its future.
    kernel.publish(0, Priority.NORMAL, Opcodes.ATOMIC_ADD, 1, 170);
    while (word(170) != 1) {
      assertTrue(System.nanoTime() < deadline, "a task behind the yielding one never ran");
      Thread.sleep(1);
    }
    long started = System.nanoTime();
    ShutdownReport report = kernel.shutdown(Duration.ofSeconds(5));
    assertTrue(System.nanoTime() - started < Duration.ofSeconds(5).toNanos(), "shutdown did not wait for the yielding task");
    assertTrue(report.exitedCleanly(), "the kernel exited on SHUTDOWN, not by abort");
    ShutdownReport.InFlight left = report.inFlight().getFirst();
    assertEquals(yielding, left.ticket());
    assertEquals(SlotStatus.YIELD, left.status(), "still a continuation when the kernel stopped");
  }

  @Test
  void tasksThatYieldForeverLeaveTheKernelServingOthers() throws Exception {
    // Several at once, so that whichever warps take them (on CUDA the scout and its express helper
    // run lone tasks themselves), the kernel must go on taking new work.
    UserOpcode forever = UserOpcode.both(0x101, "forever", slot -> SlotLayout.STATUS_YIELD, "status = VYRE_STATUS_YIELD;");
    start(forever);
    for (int i = 0; i < 4; i++) {
      kernel.publish(0, Priority.NORMAL, 0x101);
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (word(ControlLayout.CONTINUATION_COUNT) == 0) {
        assertTrue(System.nanoTime() < deadline, "the yielding task never ran");
        Thread.sleep(1);
      }
    }
    // Nothing behind the yielding tasks retires (tickets retire in order): stay within the 64 slots.
    for (int i = 1; i <= 50; i++) {
      kernel.publish(0, Priority.NORMAL, Opcodes.ATOMIC_ADD, 1, 170);
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (word(170) != i) {
        assertTrue(System.nanoTime() < deadline, "task " + i + " behind the yielding ones never ran");
        Thread.onSpinWait();
      }
    }
    assertEquals(4, kernel.shutdown(Duration.ofSeconds(5)).inFlight().stream()
        .filter(slot -> slot.status() == SlotStatus.YIELD).count());
  }

  @Test
  void manyTasksWaitingAtOnceAllFinishOnceReleased() throws Exception {
    // More waiting tasks than a worker once kept (16; the 17th made it re-run the oldest, which
    // recursed once per waiting task until the worker's stack overflowed).
    start(GATE);
    int tasks = 40;
    List<java.util.concurrent.CompletableFuture<TaskResult>> waiting = new java.util.ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      waiting.add(kernel.submit(Task.of(0x102)));
    }
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (word(ControlLayout.CONTINUATION_COUNT) < 2L * tasks) {
      assertTrue(System.nanoTime() < deadline, "the waiting tasks were not run again");
      Thread.sleep(1);
    }
    kernel.publish(0, Priority.NORMAL, Opcodes.STORE_U32, 1, 171);
    for (java.util.concurrent.CompletableFuture<TaskResult> task : waiting) {
      assertTrue(task.get(10, java.util.concurrent.TimeUnit.SECONDS).isDone());
    }
  }

  @Test
  void continuationsAtVolumeThroughAWrappingRingAllFinish() throws Exception {
    // On CUDA this once crashed the kernel within a second (CUDA_ERROR_ILLEGAL_ADDRESS): a worker
    // warp's lanes read the continuation count at different moments, lane 0 alone ran a
    // continuation, and the others paired their warp-wide shuffles with the wrong ones.
    start(COUNTDOWN);
    int inFlight = 8;
    long[] tickets = new long[inFlight];
    int tasks = 10_000;
    for (int i = 0; i < tasks; i++) {
      if (i >= inFlight) {
        assertTrue(kernel.await(tickets[i % inFlight], WAIT), "task " + (i - inFlight) + ": " + kernel.summary());
      }
      tickets[i % inFlight] = kernel.publish(0, Priority.NORMAL, 0x103, 3);
    }
    assertTrue(kernel.drain(WAIT), kernel.summary());
    assertEquals(0, kernel.stats().faults());
    assertEquals(tasks, kernel.stats().done());
  }

  @Test
  void unfinishedTasksComeBackWholeAndRunOnANewKernel() throws Exception {
    start(GATE);
    List<Task> published = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Task task = Task.of(0x102, i, 100 + i, -i, 7, 8, 9, 10, 11, 12, 13, 14, 1000 + i).withTenant(1);
      published.add(task);
      kernel.publish(task);
    }
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (word(ControlLayout.CONTINUATION_COUNT) < 5) {
      assertTrue(System.nanoTime() < deadline, "the gated tasks never ran");
      Thread.sleep(1);
    }
    ShutdownReport report = kernel.shutdown(Duration.ofSeconds(5));
    assertEquals(published, report.inFlight().stream().map(ShutdownReport.InFlight::task).toList(),
        "each unfinished task, its tenant, priority, opcode and 12 arguments as published");
    Megakernel next = start(GATE);
    assertTrue(run(Task.of(Opcodes.STORE_U32, 1, 171)).isDone());
    for (ShutdownReport.InFlight unfinished : report.inFlight()) {
      assertTrue(next.submit(unfinished.task()).get(10, java.util.concurrent.TimeUnit.SECONDS).isDone());
    }
  }

  @Test
  void userHandlerCanYieldAndIsRunAgain() throws Exception {
    UserOpcode countdown = UserOpcode.both(0x100, "countdown", slot -> {
      int left = slot.arg(0);
      if (left > 0) {
        slot.setArg(0, left - 1);
        return SlotLayout.STATUS_YIELD;
      }
      dev.vyre.runtime.wire.Words.getAndAdd(slot.control(), 170, 1);
      return SlotLayout.STATUS_DONE;
    }, """
        if (args[0] > 0u) { args[0] -= 1u; status = VYRE_STATUS_YIELD; }
        else { vyre_add(a, 170u, 1u); status = VYRE_STATUS_DONE; }
        """);
    start(countdown);
    assertTrue(run(Task.of(0x100, 3)).isDone());
    assertEquals(1, word(170));
    assertEquals(3, word(ControlLayout.CONTINUATION_COUNT));
  }

  /**
   * A fresh kernel whose first task yields: on CUDA the first run came from the scout's express copy
   * and the re-run from a worker, which once found the tenant table not yet mirrored and faulted the
   * task as unauthorized.
   */
  @Test
  void theFirstTaskOfAFreshKernelMayYieldAndFinish() throws Exception {
    for (int kernels = 0; kernels < 10; kernels++) {
      start(COUNTDOWN);
      TaskResult first = run(Task.of(0x103, 2));
      assertTrue(first.isDone(), "kernel " + kernels + ": " + first);
      kernel.close();
      kernel = null;
    }
  }

  @Test
  void shutdownOpcodeStopsTheKernelAndReportsWhatIsLeft() throws Exception {
    start();
    assertTrue(run(Task.of(Opcodes.SHUTDOWN)).isDone());
    assertTrue(kernel.shutdown(WAIT).exitedCleanly());
  }
}
