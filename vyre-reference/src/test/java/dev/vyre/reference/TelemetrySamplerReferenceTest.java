package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.observe.telemetry.TelemetrySample;
import dev.vyre.observe.telemetry.TelemetrySampler;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Live telemetry against a real reference kernel: one worker is deliberately stuck in a user
 * handler, the sampler's watchdog flags the stall by the second sample, and clears it once the
 * handler returns.
 */
class TelemetrySamplerReferenceTest {

  private static final int BLOCK = 0x100;
  private static final int QUEUED_BEHIND = 3;

  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  private Megakernel stalledKernel() throws InterruptedException {
    Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(64).workers(1)
        .userOpcode(UserOpcode.java(BLOCK, "block", slot -> {
          entered.countDown();
          awaitRelease();
          return SlotLayout.STATUS_DONE;
        }))
        .bootstrap();
    kernel.publish(0, Priority.NORMAL, BLOCK);
    for (int i = 0; i < QUEUED_BEHIND; i++) {
      kernel.publish(0, Priority.NORMAL, Opcodes.NOP);
    }
    assertTrue(entered.await(30, TimeUnit.SECONDS), "the blocking handler never ran");
    return kernel;
  }

  private void awaitRelease() {
    try {
      release.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void watchdogFlagsAStuckKernelByTheSecondSampleAndClearsOnRecovery() throws InterruptedException {
    try (Megakernel kernel = stalledKernel()) {
      TelemetrySampler sampler = TelemetrySampler.of(kernel);
      TelemetrySample first = sampler.sample();
      assertNull(first.watchdog());
      assertEquals(1 + QUEUED_BEHIND, first.counters().queueDepth());
      TelemetrySample second = sampler.sample();
      assertTrue(second.stalled(), second.dashboardLine());
      assertEquals(0, second.heartbeatDelta(), "a worker stuck in a handler does not beat");
      assertTrue(second.kernelRunning());

      release.countDown();
      assertTrue(kernel.drain(Duration.ofSeconds(30)), kernel.summary());
      TelemetrySample recovered = sampler.sample();
      assertFalse(recovered.stalled(), recovered.dashboardLine());
      assertEquals(1 + QUEUED_BEHIND, recovered.watchdog().doneDelta());
      assertEquals(0, recovered.counters().queueDepth());
      assertEquals(1, sampler.totalStalledSamples());
    } finally {
      release.countDown();
    }
  }

  @Test
  void backgroundSamplerReportsTheStallAndTheRecoveryToListeners() throws Exception {
    try (Megakernel kernel = stalledKernel(); TelemetrySampler sampler = TelemetrySampler.of(kernel)) {
      CompletableFuture<TelemetrySample> firstStall = new CompletableFuture<>();
      CompletableFuture<TelemetrySample> recovery = new CompletableFuture<>();
      sampler.addListener(sample -> {
        if (sample.stalled()) {
          firstStall.complete(sample);
        } else if (firstStall.isDone() && sample.watchdog() != null && sample.watchdog().doneDelta() > 0) {
          recovery.complete(sample);
        }
      });
      sampler.start(Duration.ofMillis(5));
      TelemetrySample stall = firstStall.get(30, TimeUnit.SECONDS);
      assertEquals(2, stall.sequence(), "flagged on the second sample");
      release.countDown();
      assertEquals(0, recovery.get(30, TimeUnit.SECONDS).stalledSamples());
    } finally {
      release.countDown();
    }
  }
}
