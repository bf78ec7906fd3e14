package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.KernelException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.ShutdownReport;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Shutdown and failure while other threads use the kernel: every future completes, every waiter
 * returns, and {@code shutdown} returns a report, whichever thread calls it. Timeouts here only
 * guard against hangs; the order of events is fixed by latches.
 */
class MegakernelShutdownTest {

  private static final int HOLD = 0x100;

  @Test
  void shutdownFromAFutureCallbackOnTheRetireThreadReturnsAReport() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(16).workers(1)
        .singlePriority(Priority.NORMAL).userOpcode(HoldingOpcode.of(HOLD, "hold", release)).bootstrap();
    CompletableFuture<TaskResult> held = kernel.submit(Task.of(HOLD));
    CompletableFuture<ShutdownReport> closedInCallback = new CompletableFuture<>();
    CompletableFuture<String> callbackThread = new CompletableFuture<>();
    // Registered while the task is held, so the retire pass that completes it runs the callback.
    held.whenComplete((result, error) -> {
      callbackThread.complete(Thread.currentThread().getName());
      try {
        closedInCallback.complete(kernel.shutdown(Duration.ofSeconds(2)));
      } catch (Throwable t) {
        closedInCallback.completeExceptionally(t);
      }
    });
    release.countDown();
    ShutdownReport report = closedInCallback.get(30, TimeUnit.SECONDS);
    assertTrue(callbackThread.get().startsWith("vyre-retire"), callbackThread.get());
    assertTrue(report.exitedCleanly());
    assertEquals(1, report.doneCount());
    assertEquals(0, report.inFlight().size(), "the task whose callback shut down had retired: " + report.inFlight());
    assertTrue(held.get().isDone());
    assertSame(report, kernel.shutdown(Duration.ofSeconds(1)), "shutdown is idempotent");
    assertThrows(KernelException.class, () -> kernel.publish(Task.of(Opcodes.NOP)));
  }

  @Test
  void shutdownFromACallbackWhileAnotherThreadShutsDownReturnsTheSameReportOnBoth() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(16).workers(1)
        .singlePriority(Priority.NORMAL).userOpcode(HoldingOpcode.of(HOLD, "hold", release)).bootstrap();
    CompletableFuture<TaskResult> held = kernel.submit(Task.of(HOLD));
    CountDownLatch inCallback = new CountDownLatch(1);
    CompletableFuture<ShutdownReport> fromCallback = new CompletableFuture<>();
    held.whenComplete((result, error) -> {
      inCallback.countDown();
      try {
        // Inside the retire pass, once the other thread's shutdown holds its lock (it sets SHUTDOWN there).
        while (ControlLayout.readWord(MemorySegment.ofArray(kernel.controlSnapshot()), ControlLayout.SHUTDOWN) == 0) {
          Thread.onSpinWait();
        }
        fromCallback.complete(kernel.shutdown(Duration.ofSeconds(1)));
      } catch (Throwable t) {
        fromCallback.completeExceptionally(t);
      }
    });
    release.countDown();
    assertTrue(inCallback.await(10, TimeUnit.SECONDS));
    CompletableFuture<ShutdownReport> fromOther = new CompletableFuture<>();
    Thread.ofPlatform().daemon().start(() -> {
      try {
        fromOther.complete(kernel.shutdown(Duration.ofMillis(200)));
      } catch (Throwable t) {
        fromOther.completeExceptionally(t);
      }
    });
    ShutdownReport report = fromOther.get(30, TimeUnit.SECONDS);
    assertSame(report, fromCallback.get(30, TimeUnit.SECONDS));
    assertEquals(0, report.inFlight().size(), report.inFlight().toString());
    assertTrue(held.get().isDone());
  }

  @Test
  void aSubmitWaitingForRoomWhenTheKernelShutsDownIsRefusedWithClosed() throws Exception {
    // The one slot is held until SHUTDOWN is set, so the submitter waits for room (it looks again
    // now and then) while shutdown runs, and the slot frees during shutdown. Several rounds: on
    // the old code the submitter lost only when it looked again after shutdown had failed the
    // futures in flight (about 60 % of rounds here).
    UserOpcode holdUntilShutdown = UserOpcode.java(HOLD, "hold until shutdown", ctx -> {
      while (Words.getVolatile(ctx.control(), ControlLayout.SHUTDOWN) == 0) {
        Thread.onSpinWait();
      }
      return SlotLayout.STATUS_DONE;
    });
    for (int round = 0; round < 20; round++) {
      Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(1).workers(1)
          .singlePriority(Priority.NORMAL).userOpcode(holdUntilShutdown).publishTimeout(Duration.ofMinutes(1)).bootstrap();
      kernel.publish(Task.of(HOLD));
      CompletableFuture<CompletableFuture<TaskResult>> submitted = new CompletableFuture<>();
      Thread submitter = Thread.ofPlatform().daemon().start(() -> {
        try {
          submitted.complete(kernel.submit(Task.of(Opcodes.NOP)));
        } catch (Throwable t) {
          submitted.completeExceptionally(t);
        }
      });
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (submitter.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      kernel.shutdown(Duration.ofSeconds(10));
      ExecutionException refused = assertThrows(ExecutionException.class, () -> submitted.get(30, TimeUnit.SECONDS),
          "round " + round + ": a submit that returned after shutdown has a future nobody completes");
      KernelException closed = assertInstanceOf(KernelException.class, refused.getCause());
      assertEquals(KernelException.Variant.Closed, closed.variant());
    }
  }

  /** A handler with a bug that is not a RuntimeException (which would fault only its slot). */
  private static final UserOpcode CRASH = UserOpcode.java(HOLD + 1, "crash", ctx -> {
    throw new AssertionError("handler bug");
  });

  /** Two workers, so one dying leaves the kernel running; the stall timeout is far away. */
  private static Megakernel crashingKernel() {
    return Megakernel.builder().backend(new ReferenceBackend()).slots(16).workers(2).singlePriority(Priority.NORMAL)
        .userOpcode(CRASH).stallTimeout(Duration.ofMinutes(5)).bootstrap();
  }

  @Test
  void aWorkerKilledByAnErrorFailsTheKernelWithADeviceFault() throws Exception {
    Megakernel kernel = crashingKernel();
    CompletableFuture<TaskResult> crashed = kernel.submit(Task.of(CRASH.opcode()));
    ExecutionException error = assertThrows(ExecutionException.class, () -> crashed.get(30, TimeUnit.SECONDS));
    KernelException fault = assertInstanceOf(KernelException.class, error.getCause());
    assertEquals(KernelException.Variant.DeviceFault, fault.variant());
    assertTrue(fault.getMessage().contains("handler bug") && fault.getMessage().contains("Fix:"), fault.getMessage());
    assertSame(fault, kernel.failure());
    assertFalse(kernel.isKernelRunning());
    assertSame(fault, assertThrows(KernelException.class, () -> kernel.publish(Task.of(Opcodes.NOP))));
    ShutdownReport report = kernel.shutdown(Duration.ofSeconds(5));
    assertFalse(report.exitedCleanly());
    assertEquals(1, report.inFlight().size());
    assertEquals(SlotStatus.CLAIMED, report.inFlight().get(0).status(), "the dead worker never finished it");
  }

  @Test
  void aWaiterIsWokenByAWorkerFailure() {
    Megakernel kernel = crashingKernel();
    long ticket = kernel.publish(Task.of(CRASH.opcode()));
    KernelException fault = assertThrows(KernelException.class, () -> kernel.await(ticket, Duration.ofSeconds(30)));
    assertEquals(KernelException.Variant.DeviceFault, fault.variant());
    kernel.close();
  }

  @Test
  void shutdownFromAnInterruptedThreadStillWaitsForTheKernelAndFreesItsMemory() throws Exception {
    Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(16).workers(1).bootstrap();
    MemorySegment resource = kernel.resource(kernel.allocateResource(64, ResourcePlacement.HOST_MAPPED));
    assertTrue(kernel.submit(Task.of(Opcodes.NOP)).get(10, TimeUnit.SECONDS).isDone());
    Thread.currentThread().interrupt();
    ShutdownReport report;
    try {
      report = kernel.shutdown(Duration.ofSeconds(10));
    } finally {
      assertTrue(Thread.interrupted(), "the caller's interrupt is kept");
    }
    assertTrue(report.exitedCleanly(), "the idle kernel exits on SHUTDOWN at once");
    assertFalse(resource.scope().isAlive(), "the session's memory was freed");
  }

  @Test
  void afterShutdownTheKernelIsNotRunningEvenWhenAHandlerOutlivedTheAbort() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    UserOpcode deaf = UserOpcode.java(HOLD + 2, "ignores interrupts", ctx -> {
      started.countDown();
      while (true) {
        try {
          release.await();
          return SlotLayout.STATUS_DONE;
        } catch (InterruptedException e) {
          // Keeps waiting: the abort cannot stop this handler.
        }
      }
    });
    Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(16).workers(1)
        .singlePriority(Priority.NORMAL).userOpcode(deaf).bootstrap();
    try {
      long ticket = kernel.publish(Task.of(deaf.opcode()));
      assertTrue(started.await(10, TimeUnit.SECONDS));
      ShutdownReport report = kernel.shutdown(Duration.ofMillis(100));
      assertFalse(report.exitedCleanly());
      assertEquals(1, report.inFlight().size());
      assertFalse(kernel.isKernelRunning(), "shut down, whatever its last worker still does");
      assertFalse(assertTimeoutPreemptively(Duration.ofSeconds(20), () -> kernel.drain(Duration.ofMinutes(5))));
      assertFalse(kernel.await(ticket, Duration.ofMinutes(5)));
    } finally {
      release.countDown();
    }
  }

  @Test
  void resourceCallsAfterShutdownFailWithClosed() {
    Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(16).workers(1).bootstrap();
    int handle = kernel.allocateResource(64, ResourcePlacement.HOST_MAPPED);
    kernel.close();
    MemorySegment bytes = MemorySegment.ofArray(new byte[8]);
    List<Executable> calls = List.of(() -> kernel.allocateResource(64, ResourcePlacement.HOST_MAPPED),
        () -> kernel.resource(handle), () -> kernel.writeResource(handle, 0, bytes), () -> kernel.readResource(handle, 0, bytes));
    for (Executable call : calls) {
      KernelException closed = assertThrows(KernelException.class, call, "the session's memory is freed");
      assertEquals(KernelException.Variant.Closed, closed.variant());
    }
  }
}
