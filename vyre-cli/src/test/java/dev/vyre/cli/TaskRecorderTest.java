package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.ErrorCode;
import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.observe.replay.ReplayFailureClass;
import dev.vyre.observe.replay.ReplayLogFormat;
import dev.vyre.observe.replay.ReplayRecord;
import dev.vyre.observe.replay.RerunEntry;
import dev.vyre.observe.replay.RerunSidecar;
import dev.vyre.observe.replay.RingLog;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.ShutdownReport;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code vyre run --record} writes while the run is still going, when it gives up on a task,
 * and when it stops on an exception: a run on the reference backend with a task the test holds
 * (a user opcode that yields until released) driven through {@link RunCommand#publishAndWait}.
 */
class TaskRecorderTest {

  /** A user opcode that finishes DONE once the test releases it and yields until then. */
  private static final int HOLD = 0x100;
  /** Long enough for anything here; reached only when the behaviour under test is broken. */
  private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(30);

  @TempDir Path dir;

  private final CountDownLatch release = new CountDownLatch(1);
  /** Counted down when a held task first runs: it was published (and the recorder told) by then. */
  private final CountDownLatch holding = new CountDownLatch(1);
  private final ExecutorService runner = Executors.newSingleThreadExecutor();

  @AfterEach
  void releaseAndStop() {
    release.countDown();
    runner.shutdownNow();
  }

  private UserOpcode hold() {
    return UserOpcode.java(HOLD, "hold", slot -> {
      holding.countDown();
      try {
        return release.await(1, TimeUnit.MILLISECONDS) ? SlotLayout.STATUS_DONE : SlotLayout.STATUS_YIELD;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return SlotLayout.STATUS_FAULT;
      }
    });
  }

  private Megakernel kernel(int slots, boolean singlePriority) {
    var builder = Megakernel.builder().backend("reference").slots(slots).tenants(2).observables(64).userOpcode(hold());
    if (singlePriority) {
      builder.singlePriority(Priority.NORMAL);
    }
    return builder.bootstrap();
  }

  private static RerunSidecar sidecar(Path log, int tasks) {
    return RerunSidecar.create(RerunSidecar.pathFor(log), new RerunSidecar.Header(tasks, 30, tasks, 64, 2, 64));
  }

  private static void awaitRecorded(TaskRecorder recorder, int count) throws InterruptedException {
    long deadline = System.nanoTime() + GUARD_NANOS;
    while (recorder.recorded() < count) {
      assertTrue(System.nanoTime() < deadline, "only " + recorder.recorded() + " of " + count + " tasks were recorded");
      Thread.sleep(1);
    }
  }

  private static long observableDigest(byte[] control) {
    return ReplayLogFormat.outputDigest(Arrays.copyOfRange(control, 4 * ControlLayout.OBSERVABLE_BASE, control.length));
  }

  /** The digest of 64 observables of which words 1 and 2 hold these values. */
  private static long digestOf(int observable1, int observable2) {
    byte[] observables = new byte[4 * 64];
    observables[4] = (byte) observable1;
    observables[8] = (byte) observable2;
    return ReplayLogFormat.outputDigest(observables);
  }

  private static ReplayRecord find(List<ReplayRecord> records, int opcode, int arg0) {
    return records.stream().filter(r -> r.slot().opcode() == opcode && r.slot().arg0() == arg0).findFirst()
        .orElseThrow(() -> new AssertionError("no record of opcode " + opcode + " arg0 " + arg0 + " in " + records));
  }

  @Test
  void tasksThatEndedAreInTheLogWhileTheRunIsStillGoing() throws Exception {
    List<Task> tasks = List.of(
        Task.of(Opcodes.ATOMIC_ADD, 5, 161),                          // ends DONE
        Task.of(Opcodes.STORE_U32, 1, 100_000),                       // ends FAULT
        Task.of(HOLD),                                                // held by the test
        Task.of(Opcodes.ATOMIC_ADD, 2, 161),                          // runs, but retires after the held task
        new Task(0, Priority.HIGH, Opcodes.ATOMIC_ADD, new int[] {3, 162})); // another partition: ends
    Path path = dir.resolve("run.vrrl");
    TaskEnds ends = new TaskEnds(tasks.size());
    try (RingLog log = RingLog.open(path, tasks.size());
        Megakernel kernel = kernel(64, false);
        RerunSidecar sidecar = sidecar(path, tasks.size());
        TaskRecorder recorder = TaskRecorder.start(log, sidecar, tasks, ends, kernel::controlSnapshot)) {
      Future<TaskResult[]> run = runner.submit(() -> RunCommand.publishAndWait(kernel, tasks, ends, recorder, Duration.ofSeconds(30)));
      awaitRecorded(recorder, 3);

      List<ReplayRecord> midRun = RingLog.read(path).records();
      assertFalse(run.isDone(), "the held task has not ended, so the run still waits");
      assertEquals(3, midRun.size(), "the three tasks that ended, and only those: " + midRun);
      ReplayRecord first = find(midRun, Opcodes.ATOMIC_ADD, 5);
      ReplayRecord fault = find(midRun, Opcodes.STORE_U32, 1);
      ReplayRecord high = find(midRun, Opcodes.ATOMIC_ADD, 3);
      assertNull(first.failure());
      assertNull(high.failure());
      assertTrue(midRun.indexOf(first) < midRun.indexOf(fault), "one priority level retires, and is recorded, in program order");
      assertEquals(SlotLayout.STATUS_FAULT, fault.failure().slotStatus());
      assertEquals(ReplayFailureClass.ProgramBug, fault.failure().failureClass());
      // The observables as of when the fault was seen, not the final ones: the first task's 5, and
      // the fourth's 2 and the fifth's 3 if they had run by then.
      Set<Long> seenThen = Set.of(digestOf(5, 0), digestOf(7, 0), digestOf(5, 3), digestOf(7, 3));
      assertTrue(seenThen.contains(fault.failure().outputDigest()), Long.toHexString(fault.failure().outputDigest()));

      release.countDown();
      TaskResult[] results = run.get(30, TimeUnit.SECONDS);
      assertTrue(Arrays.stream(results).allMatch(r -> r != null), Arrays.toString(results));
      ShutdownReport report = kernel.shutdown(Duration.ofSeconds(5));
      recorder.finish(report.finalControl());
      assertEquals(5, recorder.recorded());
    }
    List<ReplayRecord> records = RingLog.read(path).records();
    assertEquals(5, records.size());
    assertEquals(HOLD, records.get(3).slot().opcode(), "the held task, then the one behind it: " + records);
    assertEquals(Opcodes.ATOMIC_ADD, records.get(4).slot().opcode());
    assertEquals(2, records.get(4).slot().arg0());
    assertNull(records.get(4).failure());
    RerunSidecar.Contents sidecar = RerunSidecar.read(RerunSidecar.pathFor(path));
    for (int k = 0; k < records.size(); k++) {
      RerunEntry entry = sidecar.entries().get(k);
      assertTrue(entry.describes(records.get(k).slot()), "entry " + k + " is its record's task");
      assertEquals(tasks.get(entry.taskIndex()), entry.task(), "the whole task, at its index in the program");
    }
    assertEquals(4, sidecar.finalState().doneCount());
    assertEquals(1, sidecar.finalState().faultCount());
    assertEquals(7, sidecar.finalState().observable(1));
  }

  @Test
  void aTaskThatNeverEndsIsRecordedLastWithTheFinalObservables() throws Exception {
    List<Task> tasks = List.of(Task.of(Opcodes.ATOMIC_ADD, 5, 161), Task.of(HOLD), Task.of(Opcodes.ATOMIC_ADD, 2, 161));
    Path path = dir.resolve("run.vrrl");
    TaskEnds ends = new TaskEnds(tasks.size());
    try (RingLog log = RingLog.open(path, tasks.size());
        Megakernel kernel = kernel(64, false);
        RerunSidecar sidecar = sidecar(path, tasks.size());
        TaskRecorder recorder = TaskRecorder.start(log, sidecar, tasks, ends, kernel::controlSnapshot)) {
      TaskResult[] results = RunCommand.publishAndWait(kernel, tasks, ends, recorder, Duration.ofMillis(200));
      assertEquals(SlotStatus.DONE, results[0].status());
      assertNull(results[1], "given up on");
      assertNull(results[2], "behind the task given up on");
      ShutdownReport report = kernel.shutdown(Duration.ofSeconds(5));
      recorder.finish(report.finalControl());
      assertEquals(3, recorder.recorded());

      List<ReplayRecord> records = RingLog.read(path).records();
      assertNull(records.get(0).failure());
      for (ReplayRecord unended : records.subList(1, 3)) {
        assertEquals(TaskRecorder.UNKNOWN_SLOT, unended.slot().slotIdx());
        assertEquals(0, unended.failure().slotStatus());
        assertEquals(ReplayFailureClass.Unclassified, unended.failure().failureClass());
        assertEquals(observableDigest(report.finalControl()), unended.failure().outputDigest(), "the final observables");
      }
      assertEquals(HOLD, records.get(1).slot().opcode(), "unended tasks in program order");
    }
  }

  @Test
  void aTaskWhoseKernelLostTheDeviceIsRecordedAsDeviceLoss() throws Exception {
    // Futures failed as a CUDA kernel's sticky fault fails them, and as a reference worker's death does.
    List<Task> tasks = List.of(Task.of(Opcodes.NOP), Task.of(Opcodes.NOP));
    Path path = dir.resolve("run.vrrl");
    TaskEnds ends = new TaskEnds(tasks.size());
    byte[] control = new byte[4 * (ControlLayout.OBSERVABLE_BASE + 64)];
    try (RingLog log = RingLog.open(path, tasks.size());
        RerunSidecar sidecar = sidecar(path, tasks.size());
        TaskRecorder recorder = TaskRecorder.start(log, sidecar, tasks, ends, () -> control)) {
      List<KernelException> failures = List.of(KernelException.deviceLost("cuda", "CUDA_ERROR_ILLEGAL_ADDRESS", ""),
          KernelException.deviceFault("reference", "a worker thread died", "", null));
      for (int task = 0; task < tasks.size(); task++) {
        recorder.publishing(task, TaskRecorder.wallClockNanos(), 0);
        ends.watch(task, CompletableFuture.failedFuture(failures.get(task)));
      }
      recorder.recordEnded();
      recorder.finish(control);
    }
    List<ReplayRecord> records = RingLog.read(path).records();
    assertEquals(ReplayFailureClass.DeviceLoss, records.get(0).failure().failureClass());
    assertEquals(ErrorCode.DeviceLost.stableId(), records.get(0).failure().backendErrorCode());
    assertEquals(ReplayFailureClass.Unclassified, records.get(1).failure().failureClass(), "a fault that left the device usable");
    assertEquals(0, records.get(1).failure().backendErrorCode());
  }

  @Test
  void anExceptionMidRunLeavesTheTasksThatEndedOnDisk() throws Exception {
    // One slot: the held task is published only once the first task retired (its future completed),
    // so the first task has ended when the third, which no kernel accepts, throws.
    List<Task> tasks = List.of(Task.of(Opcodes.ATOMIC_ADD, 5, 161), Task.of(HOLD), new Task(29, Priority.NORMAL, Opcodes.NOP, new int[0]),
        Task.of(Opcodes.ATOMIC_ADD, 2, 161));
    Path path = dir.resolve("run.vrrl");
    TaskEnds ends = new TaskEnds(tasks.size());
    byte[] controlAtTheException;
    try (RingLog log = RingLog.open(path, tasks.size());
        Megakernel kernel = kernel(1, true);
        RerunSidecar sidecar = sidecar(path, tasks.size());
        TaskRecorder recorder = TaskRecorder.start(log, sidecar, tasks, ends, kernel::controlSnapshot)) {
      PipelineException refused = assertThrows(PipelineException.class,
          () -> RunCommand.publishAndWait(kernel, tasks, ends, recorder, Duration.ofSeconds(30)));
      assertTrue(refused.getMessage().contains("tenant id 29") && refused.getMessage().contains("Fix: "), refused.getMessage());
      controlAtTheException = kernel.controlSnapshot();
    }
    List<ReplayRecord> records = RingLog.read(path).records();
    assertEquals(2, records.size(), "the task that ended and the one in flight; the refused task and the one after were never published");
    assertEquals(Opcodes.ATOMIC_ADD, records.get(0).slot().opcode());
    assertNull(records.get(0).failure(), "it ended DONE");
    assertEquals(0, records.get(0).slot().slotIdx());
    ReplayRecord held = records.get(1);
    assertEquals(HOLD, held.slot().opcode());
    assertEquals(TaskRecorder.UNKNOWN_SLOT, held.slot().slotIdx());
    assertEquals(ReplayFailureClass.Unclassified, held.failure().failureClass());
    assertEquals(observableDigest(controlAtTheException), held.failure().outputDigest(), "the observables when the run was abandoned");
    RerunSidecar.Contents sidecar = RerunSidecar.read(RerunSidecar.pathFor(path));
    assertTrue(sidecar.entries().get(1).describes(held.slot()), "the sidecar keeps pace with the log");
    assertNull(sidecar.finalState(), "a run that stopped on an exception has no final state to compare with");
  }

  @Test
  void abandoningTheRunAsCtrlCDoesStopsItsWaitAndRecordsWhatWasInFlight() throws Exception {
    List<Task> tasks = List.of(Task.of(Opcodes.ATOMIC_ADD, 5, 161), Task.of(HOLD));
    Path path = dir.resolve("run.vrrl");
    TaskEnds ends = new TaskEnds(tasks.size());
    try (RingLog log = RingLog.open(path, tasks.size());
        Megakernel kernel = kernel(64, false);
        RerunSidecar sidecar = sidecar(path, tasks.size());
        TaskRecorder recorder = TaskRecorder.start(log, sidecar, tasks, ends, kernel::controlSnapshot)) {
      Future<TaskResult[]> run = runner.submit(() -> RunCommand.publishAndWait(kernel, tasks, ends, recorder, Duration.ofSeconds(30)));
      awaitRecorded(recorder, 1);
      // The first task's record can come before the held task is published, which a Ctrl-C then would not see.
      assertTrue(holding.await(30, TimeUnit.SECONDS), "the held task runs");
      // What the shutdown hook runs on SIGINT.
      recorder.abandon();
      TaskResult[] results = run.get(30, TimeUnit.SECONDS);
      assertEquals(SlotStatus.DONE, results[0].status());
      assertNull(results[1]);
      release.countDown();
      recorder.finish(kernel.shutdown(Duration.ofSeconds(5)).finalControl());
      assertEquals(2, recorder.recorded(), "finishing after the hook appends nothing twice");
    }
    List<ReplayRecord> records = RingLog.read(path).records();
    assertEquals(2, records.size());
    assertNull(records.get(0).failure());
    assertEquals(HOLD, records.get(1).slot().opcode());
    assertEquals(ReplayFailureClass.Unclassified, records.get(1).failure().failureClass());
    assertNull(RerunSidecar.read(RerunSidecar.pathFor(path)).finalState(), "an abandoned run has no final state");
  }
}
