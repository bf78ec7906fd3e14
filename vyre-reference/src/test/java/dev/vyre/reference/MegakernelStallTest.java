package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.KernelException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The watchdog acts on the health verdict (queued work, nothing finished, nothing faulted): a
 * handler that never returns tears the kernel down with a {@code Stalled} error. Timeouts here only
 * guard against hangs; the stall itself is held by a latch.
 */
class MegakernelStallTest {

  private static final int BLOCK = 0x310;

  @Test
  void aHandlerThatNeverReturnsIsAStallThatTearsTheKernelDown() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    UserOpcode block = UserOpcode.java(BLOCK, "block", ctx -> {
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return SlotLayout.STATUS_DONE;
    });
    Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(16).workers(1)
        .singlePriority(Priority.NORMAL).userOpcode(block).stallTimeout(Duration.ofMillis(200)).bootstrap();
    try {
      // A task that finishes first: progress before the stall does not keep the kernel alive after it.
      assertTrue(kernel.submit(Task.of(Opcodes.NOP)).get(30, TimeUnit.SECONDS).isDone());
      CompletableFuture<TaskResult> blocked = kernel.submit(Task.of(BLOCK));
      CompletableFuture<TaskResult> behind = kernel.submit(Task.of(Opcodes.NOP));
      ExecutionException error = assertThrows(ExecutionException.class, () -> blocked.get(30, TimeUnit.SECONDS));
      KernelException stalled = assertInstanceOf(KernelException.class, error.getCause());
      assertEquals(KernelException.Variant.Stalled, stalled.variant());
      assertTrue(stalled.getMessage().contains("with 2 task(s) in flight") && stalled.getMessage().contains("Fix:"),
          stalled.getMessage());
      assertSame(stalled, kernel.failure());
      assertFalse(kernel.isKernelRunning());
      ExecutionException queued = assertThrows(ExecutionException.class, () -> behind.get(30, TimeUnit.SECONDS));
      assertSame(stalled, queued.getCause(), "the task queued behind it fails with the same error");
    } finally {
      release.countDown();
      kernel.shutdown(Duration.ofSeconds(10));
    }
  }
}
