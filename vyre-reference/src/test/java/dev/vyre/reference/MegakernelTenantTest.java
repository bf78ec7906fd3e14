package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.MegakernelBuilder;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.tenant.Tenant;
import dev.vyre.runtime.tenant.TenantException;
import dev.vyre.runtime.tenant.TenantQuota;
import dev.vyre.runtime.tenant.TenantRegistry;
import dev.vyre.runtime.tenant.TenantRuntimeCounters;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.FaultReason;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The tenant registry on a running kernel (docs/PROTOCOL.md, "Tenants", docs/DESIGN.md, "Tenant
 * ids"): registered tenants publish through the kernel with their tenant word and opcode window,
 * the retire step counts their drains, and backpressure and quiesce follow them. Tests that hold a
 * task in a Java handler run on the CPU reference backend; the others on
 * {@link TestBackends#selected()}, so scripts/gpu-check.sh runs them on CUDA too.
 */
class MegakernelTenantTest {

  /** Local opcode 7 of every tenant: adds arg0 to the observable numbered by the slot's tenant word. */
  private static final int ADD_LOCAL = 7;
  /** Local opcode 8: waits for the test, then finishes DONE. */
  private static final int BLOCK_LOCAL = 8;
  /** Long enough for any test here (spins, then 50 µs parks: tens of seconds), never reached when it works. */
  private static final long QUIESCE_POLLS = 1_000_000;

  private static int global(int tenant, int local) {
    return TenantRegistry.TENANT_OPCODE_BASE + tenant * TenantRegistry.OPCODE_RANGE_PER_TENANT + local;
  }

  private static UserOpcode addToTenantObservable(int tenant) {
    // The CUDA body names the tenant's observable itself: each tenant has an opcode of its own.
    return UserOpcode.both(global(tenant, ADD_LOCAL), "add-" + tenant, slot -> {
      Words.getAndAdd(slot.control(), ControlLayout.observableWord(slot.tenant()), slot.arg(0));
      return SlotLayout.STATUS_DONE;
    }, "vyre_add(a, " + ControlLayout.observableWord(tenant) + "u, args[0]); status = VYRE_STATUS_DONE;");
  }

  private static UserOpcode blocking(int tenant, CountDownLatch release) {
    return HoldingOpcode.of(global(tenant, BLOCK_LOCAL), "block-" + tenant, release);
  }

  @Test
  void registeredTenantsPublishWithTheirIdAndWindowAndDrainWhenTheyFinish() throws Exception {
    try (Megakernel kernel = Megakernel.builder().backend(TestBackends.selected()).slots(64).tenants(3).workers(2)
        .userOpcode(addToTenantObservable(1)).userOpcode(addToTenantObservable(2)).bootstrap()) {
      TenantRegistry registry = TenantRegistry.of(kernel);
      assertSame(registry, TenantRegistry.of(kernel), "one registry per kernel");
      assertEquals(3, registry.authorizedTenants());
      Tenant a = registry.register("a");
      Tenant b = registry.register("b");
      assertEquals(1, a.id());
      assertEquals(2, b.id());
      assertEquals(TenantException.Variant.RegistryFull, assertThrows(TenantException.class, () -> registry.register("c")).variant(),
          "tenants(3) authorizes ids 0..2; 0 is the host's");

      TaskResult result = a.submit(Priority.NORMAL, ADD_LOCAL, 5).get(10, TimeUnit.SECONDS);
      assertEquals(SlotStatus.DONE, result.status());
      assertEquals(a.baseOpcode() + ADD_LOCAL, result.opcode());
      long ticket = b.publish(Priority.HIGH, ADD_LOCAL, 11);
      assertTrue(kernel.await(ticket, Duration.ofSeconds(10)));
      a.quiesce(QUIESCE_POLLS);
      b.quiesce(QUIESCE_POLLS);

      assertEquals(5, kernel.observable(1), "the kernel saw tenant word 1");
      assertEquals(11, kernel.observable(2), "the kernel saw tenant word 2");
      assertEquals(1, a.drainedCount());
      assertEquals(1, b.runtimeCounters().drainedCount());
      assertEquals(0, b.runtimeCounters().outstandingSlots());
    }
  }

  @Test
  void backpressureHoldsATenantAtItsCapUntilTheKernelDrainsIt() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(16).tenants(2).workers(1)
        .singlePriority(Priority.NORMAL).userOpcode(blocking(1, release)).userOpcode(addToTenantObservable(1)).bootstrap()) {
      Tenant tenant = TenantRegistry.of(kernel).registerWithBackpressure("bounded", 2);
      tenant.publish(Priority.NORMAL, BLOCK_LOCAL);
      tenant.publish(Priority.NORMAL, ADD_LOCAL, 1);
      TenantException refused = assertThrows(TenantException.class, () -> tenant.publish(Priority.NORMAL, ADD_LOCAL, 1));
      assertEquals(TenantException.Variant.Backpressure, refused.variant());
      assertEquals(2L, refused.fields().get("outstanding"));
      assertEquals(2L, refused.fields().get("cap"));
      assertEquals(2, tenant.publishedCount());
      // The host's own tenant 0 is not held back by tenant 1's cap.
      long hostTicket = kernel.publish(0, Priority.NORMAL, Opcodes.NOP);

      release.countDown();
      tenant.quiesce(QUIESCE_POLLS);
      assertEquals(2, tenant.drainedCount());
      assertTrue(kernel.await(hostTicket, Duration.ofSeconds(10)));
      tenant.publish(Priority.NORMAL, ADD_LOCAL, 1);
      tenant.quiesce(QUIESCE_POLLS);
      assertEquals(2, kernel.observable(1));
      assertEquals(3, tenant.runtimeCounters().drainedCount());
      assertEquals(2, tenant.runtimeCounters().quiesceCalls());
    }
  }

  /** docs/PROTOCOL.md, "Tenant quotas": refused at publish and allocation, counted per tenant and in the kernel's stats. */
  @Test
  void aTenantOverItsQuotasIsRefusedAndCountedWhileAnotherIsNot() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(16).tenants(3).workers(1)
        .singlePriority(Priority.NORMAL).userOpcode(blocking(1, release)).userOpcode(blocking(2, release)).bootstrap()) {
      TenantRegistry registry = TenantRegistry.of(kernel);
      Tenant bounded = registry.registerWithQuotas("bounded", TenantQuota.bounded(1, 4096, 1));
      Tenant roomy = registry.registerWithQuotas("roomy", TenantQuota.bounded(4, 1 << 20, 4));
      MemorySegment control = MemorySegment.ofArray(kernel.controlSnapshot());
      assertEquals(4096, Words.get(control, ControlLayout.tenantQuotaWord(bounded.id())), "its reads are held to its staging quota");
      assertEquals(1 << 20, Words.get(control, ControlLayout.tenantQuotaWord(roomy.id())));
      assertEquals(ControlLayout.NO_READ_QUOTA, Words.get(control, ControlLayout.tenantQuotaWord(0)), "the host's own tenant has none");

      bounded.publish(Priority.NORMAL, BLOCK_LOCAL);
      TenantException slots = assertThrows(TenantException.class, () -> bounded.publish(Priority.NORMAL, BLOCK_LOCAL));
      assertEquals(TenantException.Variant.Backpressure, slots.variant());
      assertTrue(slots.getMessage().contains("Fix: "), slots.getMessage());
      bounded.allocateResource(4096, ResourcePlacement.HOST_MAPPED);
      TenantException staging = assertThrows(TenantException.class, () -> bounded.allocateResource(1, ResourcePlacement.HOST_MAPPED));
      assertEquals(TenantException.Variant.StagingBackpressure, staging.variant());
      assertTrue(staging.getMessage().contains("Fix: "), staging.getMessage());
      bounded.allocateResource(64, ResourcePlacement.DEVICE);
      TenantException resident = assertThrows(TenantException.class, () -> bounded.allocateResource(64, ResourcePlacement.DEVICE));
      assertEquals(TenantException.Variant.ResidentHandleBackpressure, resident.variant());
      assertTrue(resident.getMessage().contains("Fix: "), resident.getMessage());

      // Meanwhile the other tenant is held back by nothing.
      roomy.publish(Priority.NORMAL, BLOCK_LOCAL);
      roomy.publish(Priority.NORMAL, BLOCK_LOCAL);
      roomy.allocateResource(8192, ResourcePlacement.HOST_MAPPED);
      roomy.allocateResource(64, ResourcePlacement.DEVICE);
      roomy.allocateResource(64, ResourcePlacement.DEVICE);
      assertEquals(3, bounded.quotaRefusals());
      assertEquals(0, roomy.quotaRefusals());
      assertEquals(3, kernel.stats().quotaRefusals(), "the kernel's stats count every tenant's refusals");
      assertEquals(0, Words.get(MemorySegment.ofArray(kernel.controlSnapshot()), ControlLayout.TENANT_QUOTA_REFUSALS),
          "the kernel itself refused no read");

      release.countDown();
      bounded.quiesce(QUIESCE_POLLS);
      roomy.quiesce(QUIESCE_POLLS);
      bounded.publish(Priority.NORMAL, BLOCK_LOCAL);
      bounded.quiesce(QUIESCE_POLLS);
      assertEquals(2, bounded.drainedCount(), "a refused publish never reached the ring");
      assertEquals(3, bounded.quotaRefusals());
    }
  }

  @Test
  void quiesceTimesOutWhileTheKernelHoldsTheTenantsWork() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(8).tenants(2).workers(1)
        .singlePriority(Priority.NORMAL).userOpcode(blocking(1, release)).bootstrap()) {
      Tenant tenant = TenantRegistry.of(kernel).register("held");
      tenant.publish(Priority.NORMAL, BLOCK_LOCAL);
      TenantException timeout = assertThrows(TenantException.class, () -> tenant.quiesce(100));
      assertEquals(TenantException.Variant.QuiesceTimeout, timeout.variant());
      assertEquals(1L, timeout.fields().get("outstanding"));
      release.countDown();
      tenant.quiesce(QUIESCE_POLLS);
      assertEquals(1, tenant.runtimeCounters().quiesceTimeouts());
    }
  }

  @Test
  void aFaultedTaskStillDrains() throws Exception {
    try (Megakernel kernel = Megakernel.builder().backend(TestBackends.selected()).slots(8).tenants(2).workers(1).bootstrap()) {
      Tenant tenant = TenantRegistry.of(kernel).register("no handlers");
      TaskResult result = tenant.submit(Priority.NORMAL, 3).get(10, TimeUnit.SECONDS);
      assertEquals(SlotStatus.FAULT, result.status());
      assertEquals(FaultReason.UNKNOWN_OPCODE, result.fault());
      tenant.quiesce(QUIESCE_POLLS);
      assertEquals(1, tenant.drainedCount());
    }
  }

  @Test
  void aTenantWhoseMaskWasRevokedIsRefusedAtPublishWithAFix() throws Exception {
    try (Megakernel kernel = Megakernel.builder().backend(TestBackends.selected()).slots(8).tenants(2).workers(1)
        .userOpcode(addToTenantObservable(1)).bootstrap()) {
      Tenant tenant = TenantRegistry.of(kernel).register("a");
      kernel.setTenantAuthorized(tenant.id(), false);
      TenantException refused = assertThrows(TenantException.class, () -> tenant.publish(Priority.NORMAL, ADD_LOCAL, 1));
      assertEquals(TenantException.Variant.Unauthorized, refused.variant());
      assertTrue(refused.getMessage().contains("Fix: "), refused.getMessage());
      assertEquals(0, tenant.publishedCount());
      kernel.setTenantAuthorized(tenant.id(), true);
      assertEquals(SlotStatus.DONE, tenant.submit(Priority.NORMAL, ADD_LOCAL, 1).get(10, TimeUnit.SECONDS).status());
    }
  }

  @Test
  void theHostApiRefusesTenantIdsOutsideTheMaskTable() {
    try (Megakernel kernel = Megakernel.builder().backend(TestBackends.selected()).slots(8).tenants(2).bootstrap()) {
      for (int tenant : new int[] {29, -1, 157}) {
        PipelineException refused = assertThrows(PipelineException.class, () -> kernel.publish(tenant, Priority.NORMAL, Opcodes.NOP));
        assertEquals(PipelineException.Variant.InvalidArgument, refused.variant());
        assertTrue(refused.getMessage().contains("Fix: "), refused.getMessage());
        assertThrows(PipelineException.class, () -> new TaskBatch(1).add(tenant, Opcodes.NOP));
      }
    }
  }

  @Test
  void tenantsPublishingFromRacingThreadsDrainExactlyWhatTheyPublished() throws Exception {
    int tenants = 4;
    int threadsPerTenant = 2;
    int tasksPerThread = 2_000;
    MegakernelBuilder builder = Megakernel.builder().backend(TestBackends.selected()).slots(256).tenants(tenants + 1).workers(2);
    for (int t = 1; t <= tenants; t++) {
      builder.userOpcode(addToTenantObservable(t));
    }
    try (Megakernel kernel = builder.bootstrap()) {
      List<Tenant> registered = new ArrayList<>();
      for (int t = 0; t < tenants; t++) {
        registered.add(TenantRegistry.of(kernel).registerWithBackpressure("t" + t, 32));
      }
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> publishers = new ArrayList<>();
      for (Tenant tenant : registered) {
        for (int p = 0; p < threadsPerTenant; p++) {
          publishers.add(Thread.ofPlatform().start(() -> {
            try {
              start.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return;
            }
            for (int i = 0; i < tasksPerThread; ) {
              try {
                tenant.publish(Priority.ofLevel(i % 5), ADD_LOCAL, 1);
                i++;
              } catch (TenantException e) {
                assertTrue(e.isBackpressure(), e.getMessage());
                Thread.onSpinWait();
              }
            }
          }));
        }
      }
      start.countDown();
      for (Thread publisher : publishers) {
        publisher.join();
      }
      for (Tenant tenant : registered) {
        tenant.quiesce(QUIESCE_POLLS);
        long expected = (long) threadsPerTenant * tasksPerThread;
        assertEquals(expected, tenant.publishedCount());
        assertEquals(expected, tenant.drainedCount());
        assertEquals(expected, kernel.observable(tenant.id()), "tenant " + tenant.id());
      }
      assertEquals(List.of(1, 2, 3, 4), TenantRegistry.of(kernel).runtimeCounters().stream().map(TenantRuntimeCounters::tenantId).toList());
    }
  }
  @Test
  void tenantBatchesFromRacingThreadsAreCountedWholeAndDrainExactly() throws Exception {
    int tenants = 3;
    int batches = 400;
    int batchSize = 16;
    MegakernelBuilder builder = Megakernel.builder().backend(TestBackends.selected()).slots(512).tenants(tenants + 1).workers(2);
    for (int t = 1; t <= tenants; t++) {
      builder.userOpcode(addToTenantObservable(t));
    }
    try (Megakernel kernel = builder.bootstrap()) {
      List<Tenant> registered = new ArrayList<>();
      for (int t = 0; t < tenants; t++) {
        registered.add(TenantRegistry.of(kernel).registerWithBackpressure("batches-" + t, 4 * batchSize));
      }
      List<Thread> publishers = new ArrayList<>();
      for (Tenant tenant : registered) {
        for (int p = 0; p < 2; p++) {
          publishers.add(Thread.ofPlatform().start(() -> {
            TaskBatch batch = new TaskBatch(batchSize);
            for (int b = 0; b < batches; ) {
              batch.clear().priority(Priority.ofLevel(b % 5));
              for (int i = 0; i < batchSize; i++) {
                tenant.add(batch, ADD_LOCAL, 1);
              }
              try {
                tenant.publish(batch);
                b++;
              } catch (TenantException e) {
                assertTrue(e.isBackpressure(), e.getMessage());
                Thread.onSpinWait();
              }
            }
          }));
        }
      }
      for (Thread publisher : publishers) {
        publisher.join();
      }
      long expected = 2L * batches * batchSize;
      for (Tenant tenant : registered) {
        tenant.quiesce(QUIESCE_POLLS);
        assertEquals(expected, tenant.publishedCount());
        assertEquals(expected, tenant.drainedCount());
        assertEquals(expected, kernel.observable(tenant.id()), "tenant " + tenant.id());
      }
    }
  }
  @Test
  void aTaskIsDrainedWhenItsFutureCompletesSoTheNextPublishAtCapOneIsNeverRefused() throws Exception {
    try (Megakernel kernel = Megakernel.builder().backend(TestBackends.selected()).slots(64).tenants(2).workers(2)
        .userOpcode(addToTenantObservable(1)).bootstrap()) {
      Tenant tenant = TenantRegistry.of(kernel).registerWithBackpressure("one at a time", 1);
      for (int i = 0; i < 5_000; i++) {
        assertEquals(SlotStatus.DONE, tenant.submit(Priority.NORMAL, ADD_LOCAL, 1).get(10, TimeUnit.SECONDS).status());
      }
      // A callback runs inside the retire pass that completed its future: waiting there for the
      // tenant's drains must neither deadlock nor miss the task that just finished.
      CompletableFuture<Long> drainedInCallback = tenant.submit(Priority.NORMAL, ADD_LOCAL, 1).thenApply(result -> {
        tenant.quiesce(QUIESCE_POLLS);
        return tenant.drainedCount();
      });
      assertEquals(5_001L, drainedInCallback.get(10, TimeUnit.SECONDS));
      assertEquals(5_001L, kernel.observable(1));
    }
  }
}
