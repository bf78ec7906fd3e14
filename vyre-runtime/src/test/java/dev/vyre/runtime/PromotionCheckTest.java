package dev.vyre.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.spi.ResourcePlacement;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A promotion's check (the backend reading the table back) runs while writes into other resources go
 * on, and a write into the table itself during the check refuses the promotion instead of promoting
 * what the check read.
 */
class PromotionCheckTest {

  private static final MemorySegment BYTES = MemorySegment.ofArray(new long[8]);
  /** A thread a task: the common pool may have one worker, which the held promotion would take. */
  private static final Executor THREADS = task -> Thread.ofPlatform().daemon().start(task);

  private static Megakernel bootstrap(ScriptedBackend backend) {
    return Megakernel.builder().backend(backend).slots(10).priorityOffsets(0, 2, 4, 6, 8, 10).bootstrap();
  }

  /** Promotes {@code table} on another thread, held in its check until {@code release}; returns once it is held. */
  private static CompletableFuture<Void> promoteHeld(ScriptedBackend backend, Megakernel kernel, int table,
      CountDownLatch release) throws InterruptedException {
    CountDownLatch entered = new CountDownLatch(1);
    backend.session().holdPromotionCheck(entered, release);
    CompletableFuture<Void> promotion = CompletableFuture.runAsync(() -> kernel.promoteDfaTable(table, BYTES), THREADS);
    assertTrue(entered.await(10, TimeUnit.SECONDS), "the promotion reached its check");
    return promotion;
  }

  @Test
  void writesIntoOtherResourcesGoOnWhileAPromotionIsCheckedAndItPromotes() throws Exception {
    ScriptedBackend backend = new ScriptedBackend();
    try (Megakernel kernel = bootstrap(backend)) {
      int table = kernel.allocateResource(64, ResourcePlacement.DEVICE);
      int other = kernel.allocateResource(64, ResourcePlacement.DEVICE);
      CountDownLatch release = new CountDownLatch(1);
      CompletableFuture<Void> promotion = promoteHeld(backend, kernel, table, release);
      // Would wait for the check to end if the check held writes up; it returns while the check is held.
      CompletableFuture.runAsync(() -> kernel.writeResource(other, 0, BYTES), THREADS).get(10, TimeUnit.SECONDS);
      release.countDown();
      promotion.get(10, TimeUnit.SECONDS);
      assertTrue(kernel.isDfaTablePromoted(table));
    }
  }

  @Test
  void aWriteIntoTheTableDuringItsCheckRefusesThePromotion() throws Exception {
    ScriptedBackend backend = new ScriptedBackend();
    try (Megakernel kernel = bootstrap(backend)) {
      int table = kernel.allocateResource(64, ResourcePlacement.DEVICE);
      CountDownLatch release = new CountDownLatch(1);
      CompletableFuture<Void> promotion = promoteHeld(backend, kernel, table, release);
      kernel.writeResource(table, 0, BYTES);
      release.countDown();
      ExecutionException e = assertThrows(ExecutionException.class, () -> promotion.get(10, TimeUnit.SECONDS));
      PipelineException busy = (PipelineException) e.getCause();
      assertEquals(PipelineException.Variant.Busy, busy.variant());
      assertFalse(kernel.isDfaTablePromoted(table));
      // Once the writes are done, the same table promotes.
      kernel.promoteDfaTable(table, BYTES);
      assertTrue(kernel.isDfaTablePromoted(table));
    }
  }
}
