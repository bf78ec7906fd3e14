package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.MegakernelBuilder;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.ShutdownReport;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.spi.Availability;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.MegakernelBackend;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The host API's contract: back-pressure, shutdown reports, priorities, tenants, backend selection. */
class MegakernelTest {

  /** A handler that holds its worker until released, so tests can fill the ring deterministically. */
  private static UserOpcode blocking(CountDownLatch release) {
    return HoldingOpcode.of(0x100, "block", release);
  }

  private static UserOpcode blocking(CountDownLatch started, CountDownLatch release) {
    return HoldingOpcode.of(0x100, "block", started, release);
  }

  @Test
  void aFullRingRefusesWithQueueFullAndNothingIsLost() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(1);
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(8).workers(1)
        .singlePriority(Priority.NORMAL).userOpcode(blocking(started, release)).publishTimeout(Duration.ZERO).bootstrap()) {
      kernel.publish(Task.of(0x100));
      assertTrue(started.await(10, TimeUnit.SECONDS));
      for (int i = 0; i < 7; i++) {
        kernel.publish(Task.of(Opcodes.ATOMIC_ADD, 1, ControlLayout.OBSERVABLE_BASE));
      }
      PipelineException full = assertThrows(PipelineException.class, () -> kernel.publish(Task.of(Opcodes.NOP)));
      assertEquals(PipelineException.Variant.QueueFull, full.variant());
      assertTrue(full.getMessage().contains("Fix:"), full.getMessage());
      release.countDown();
      assertTrue(kernel.drain(Duration.ofSeconds(10)));
      assertEquals(7, kernel.observable(0));
      kernel.publish(Task.of(Opcodes.NOP));
      assertTrue(kernel.drain(Duration.ofSeconds(10)));
    }
  }

  @Test
  void aPublisherWaitsForRingSpaceUpToItsTimeout() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(2).workers(1)
        .singlePriority(Priority.NORMAL).userOpcode(blocking(release)).publishTimeout(Duration.ofSeconds(10)).bootstrap()) {
      kernel.publish(Task.of(0x100));
      kernel.publish(Task.of(Opcodes.NOP));
      Thread releaser = Thread.ofPlatform().start(() -> {
        try {
          Thread.sleep(200);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        release.countDown();
      });
      long ticket = kernel.publish(Task.of(Opcodes.NOP));
      assertTrue(kernel.await(ticket, Duration.ofSeconds(10)));
      releaser.join();
    }
  }

  @Test
  void shutdownReportsEverySlotStillInFlightAndFailsTheirFutures() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(16).workers(1)
        .singlePriority(Priority.NORMAL).userOpcode(blocking(started, release)).bootstrap();
    kernel.publish(Task.of(0x100));
    assertTrue(started.await(10, TimeUnit.SECONDS));
    List<CompletableFuture<TaskResult>> waiting = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      waiting.add(kernel.submit(Task.of(Opcodes.NOP)));
    }
    Thread.ofPlatform().start(() -> {
      try {
        Thread.sleep(300);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      release.countDown();
    });
    ShutdownReport report = kernel.shutdown(Duration.ofSeconds(5));
    assertTrue(report.exitedCleanly());
    assertEquals(1, report.doneCount(), "the blocked task finished; the NOPs behind it never ran");
    assertEquals(3, report.inFlight().size());
    for (ShutdownReport.InFlight slot : report.inFlight()) {
      assertEquals(Opcodes.NOP, slot.opcode());
      assertEquals(SlotStatus.PUBLISHED, slot.status());
    }
    for (CompletableFuture<TaskResult> future : waiting) {
      ExecutionException error = assertThrows(ExecutionException.class, () -> future.get(5, TimeUnit.SECONDS));
      assertInstanceOf(KernelException.class, error.getCause());
    }
    assertThrows(KernelException.class, () -> kernel.publish(Task.of(Opcodes.NOP)));
    assertEquals(report, kernel.shutdown(Duration.ofSeconds(1)), "shutdown is idempotent");
  }

  @Test
  void futuresCompleteWhileAnotherThreadAwaitsAndAfterItStops() throws Exception {
    // The retire thread stands aside while threads await: the waiters' own retire passes must
    // complete other threads' futures, and the retire thread must take over once they stop.
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(64).workers(1)
        .singlePriority(Priority.NORMAL).bootstrap()) {
      CountDownLatch awaiting = new CountDownLatch(1);
      Thread waiter = Thread.ofPlatform().start(() -> {
        for (int i = 0; i < 20_000; i++) {
          assertTrue(kernel.await(kernel.publish(0, Priority.NORMAL, Opcodes.NOP), Duration.ofSeconds(10)));
          awaiting.countDown();
        }
      });
      assertTrue(awaiting.await(10, TimeUnit.SECONDS));
      List<CompletableFuture<TaskResult>> during = new ArrayList<>();
      for (int i = 0; i < 200 && waiter.isAlive(); i++) {
        during.add(kernel.submit(Task.of(Opcodes.NOP)));
      }
      for (CompletableFuture<TaskResult> future : during) {
        assertTrue(future.get(10, TimeUnit.SECONDS).isDone());
      }
      waiter.join();
      for (int i = 0; i < 50; i++) {
        assertTrue(kernel.submit(Task.of(Opcodes.NOP)).get(10, TimeUnit.SECONDS).isDone(), "after the waiter stopped");
      }
    }
  }

  @Test
  void tasksPublishedAfterAShutdownOpcodeFailInsteadOfHanging() throws Exception {
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(16).workers(1)
        .singlePriority(Priority.NORMAL).bootstrap()) {
      assertTrue(kernel.submit(Task.of(Opcodes.SHUTDOWN)).get(10, TimeUnit.SECONDS).isDone());
      CompletableFuture<TaskResult> behind = kernel.submit(Task.of(Opcodes.NOP));
      ExecutionException error = assertThrows(ExecutionException.class, () -> behind.get(10, TimeUnit.SECONDS));
      assertInstanceOf(KernelException.class, error.getCause());
      assertFalse(kernel.isKernelRunning());
    }
  }

  @Test
  void anAwaitForATaskTheKernelExitedBeforeRunningReturnsFalseAtOnce() throws Exception {
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(16).workers(1)
        .singlePriority(Priority.NORMAL).bootstrap()) {
      // The worker checks SHUTDOWN before it claims again, so the NOP behind it never runs.
      assertTrue(kernel.submit(Task.of(Opcodes.SHUTDOWN)).get(10, TimeUnit.SECONDS).isDone());
      long behind = kernel.publish(Task.of(Opcodes.NOP));
      assertFalse(assertTimeoutPreemptively(Duration.ofSeconds(20), () -> kernel.await(behind, Duration.ofMinutes(5))),
          "as drain does, and not after the caller's whole timeout");
      assertFalse(kernel.isKernelRunning());
    }
  }

  @Test
  void aPublisherWaitingForRoomTheExitedKernelNeverFreesIsRefusedWithClosed() throws Exception {
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(2).workers(1)
        .singlePriority(Priority.NORMAL).publishTimeout(Duration.ofMinutes(5)).bootstrap()) {
      assertTrue(kernel.submit(Task.of(Opcodes.SHUTDOWN)).get(10, TimeUnit.SECONDS).isDone());
      kernel.publish(Task.of(Opcodes.NOP));
      kernel.publish(Task.of(Opcodes.NOP));
      KernelException closed = assertThrows(KernelException.class,
          () -> assertTimeoutPreemptively(Duration.ofSeconds(20), () -> kernel.publish(Task.of(Opcodes.NOP))),
          "not QueueFull after the whole publish timeout: nothing will ever free a slot");
      assertEquals(KernelException.Variant.Closed, closed.variant());
    }
  }

  @Test
  void criticalWorkIsClaimedBeforeNormalWork() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(1);
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(40).workers(1)
        .observables(8).userOpcode(blocking(started, release)).bootstrap()) {
      kernel.publish(Task.of(0x100));
      assertTrue(started.await(10, TimeUnit.SECONDS));
      // While the worker is held, queue NORMAL then CRITICAL work; each task records its order.
      kernel.publish(new Task(0, Priority.NORMAL, Opcodes.ATOMIC_ADD, new int[] {1, ControlLayout.OBSERVABLE_BASE}));
      kernel.publish(new Task(0, Priority.NORMAL, Opcodes.LOAD_U32, new int[] {ControlLayout.OBSERVABLE_BASE, 1}));
      kernel.publish(new Task(0, Priority.CRITICAL, Opcodes.LOAD_U32, new int[] {ControlLayout.OBSERVABLE_BASE, 2}));
      release.countDown();
      assertTrue(kernel.drain(Duration.ofSeconds(10)));
      assertEquals(0, kernel.observable(2), "the CRITICAL load ran before the NORMAL add");
      assertEquals(1, kernel.observable(1));
      assertEquals(1, kernel.observable(0));
    }
  }

  @Test
  void tenantIdsAboveTheMaskTableAreRefusedAtPublish() {
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(8).tenants(2).bootstrap()) {
      PipelineException refused = assertThrows(PipelineException.class,
          () -> kernel.publish(new Task(29, Priority.NORMAL, Opcodes.NOP, new int[0])));
      assertTrue(refused.getMessage().contains("0..28"), refused.getMessage());
      assertThrows(PipelineException.class, () -> kernel.publish(Task.of(Opcodes.LOAD_MISS)));
      assertThrows(PipelineException.class, () -> kernel.publish(Task.of(0x7FFF_FFF0 | 0x8000_0000)));
    }
  }

  @Test
  void bootstrapRejectsBadSizesWithAFix() {
    for (MegakernelBuilder builder : List.of(Megakernel.builder().backend(new ReferenceBackend()).slots(0),
        Megakernel.builder().backend(new ReferenceBackend()).tenants(30),
        Megakernel.builder().backend(new ReferenceBackend()).observables(-1),
        Megakernel.builder().backend(new ReferenceBackend()).slots(8).priorityOffsets(0, 1, 2, 3, 4, 9))) {
      PipelineException error = assertThrows(PipelineException.class, builder::bootstrap);
      assertTrue(error.getMessage().contains("Fix:"), error.getMessage());
      assertEquals(PipelineException.Variant.InvalidArgument, error.variant(), error.getMessage());
    }
  }

  /**
   * The reference backend with a session whose launch fails, before or after it started its
   * workers (a CUDA launch that fails, a thread that cannot start); {@code opened} gets the session.
   */
  private static MegakernelBackend failingLaunch(boolean afterStarting, AtomicReference<KernelSession> opened) {
    ReferenceBackend reference = new ReferenceBackend();
    return new MegakernelBackend() {
      @Override
      public String name() {
        return reference.name();
      }

      @Override
      public int precedence() {
        return reference.precedence();
      }

      @Override
      public Availability availability() {
        return reference.availability();
      }

      @Override
      public KernelSession open(KernelSpec spec) {
        KernelSession session = reference.open(spec);
        opened.set(session);
        return (KernelSession) Proxy.newProxyInstance(KernelSession.class.getClassLoader(), new Class<?>[] {KernelSession.class},
            (proxy, method, args) -> {
              if (method.getName().equals("launch")) {
                if (afterStarting) {
                  session.launch();
                }
                throw PipelineException.backend("launch failed (test)");
              }
              try {
                return method.invoke(session, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
      }
    };
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aBootstrapThatFailsAfterOpeningItsSessionClosesIt(boolean afterStarting) {
    AtomicReference<KernelSession> opened = new AtomicReference<>();
    PipelineException error = assertThrows(PipelineException.class,
        () -> Megakernel.builder().backend(failingLaunch(afterStarting, opened)).slots(8).workers(1).bootstrap());
    assertTrue(error.getMessage().contains("launch failed"), error.getMessage());
    assertEquals(0, error.getSuppressed().length, List.of(error.getSuppressed()).toString());
    assertFalse(opened.get().memory().ring().scope().isAlive(), "the session was closed: its workers stopped, its memory freed");
  }

  @Test
  void unknownBackendNamesSayWhichExist() {
    InputException error = assertThrows(InputException.class, () -> Megakernel.builder().backend("tpu"));
    assertTrue(error.getMessage().contains("reference"), error.getMessage());
  }
}
