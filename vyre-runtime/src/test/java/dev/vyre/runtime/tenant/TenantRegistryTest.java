package dev.vyre.runtime.tenant;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** docs/PROTOCOL.md, "Tenants" (registration, windows, unregister, selection), with our ids (docs/DESIGN.md, "Tenant ids"). */
class TenantRegistryTest {

  @Test
  void twoTenantsGetDistinctIdsAndOpcodeWindows() {
    TenantRegistry registry = new TenantRegistry();
    Tenant a = registry.register("scanner-a");
    Tenant b = registry.register("scanner-b");
    assertNotEquals(a.id(), b.id());
    assertTrue(Integer.toUnsignedLong(a.baseOpcode()) + TenantRegistry.OPCODE_RANGE_PER_TENANT <= Integer.toUnsignedLong(b.baseOpcode()));
    assertEquals("scanner-a", a.label());
    assertEquals("scanner-b", b.label());
  }

  @Test
  void idsStartAtOneAsInVyreSoTheWindowsAreVyres() {
    TenantRegistry registry = new TenantRegistry();
    Tenant first = registry.register("a");
    Tenant second = registry.register("b");
    assertEquals(1, first.id());
    assertEquals(0x4010_0000, first.baseOpcode());
    assertEquals(2, second.id());
    assertEquals(0x4020_0000, second.baseOpcode());
  }

  @Test
  void handsOutOnlyIdsTheControlBlockAuthorizes() {
    // tenant_count = 3 authorizes 0, 1, 2; 0 is the host's.
    TenantRegistry registry = new TenantRegistry(3);
    assertEquals(1, registry.register("a").id());
    assertEquals(2, registry.register("b").id());
    TenantException full = assertThrows(TenantException.class, () -> registry.register("c"));
    assertEquals(TenantException.Variant.RegistryFull, full.variant());
    assertEquals(2L, full.fields().get("issued"));
    assertEquals(3L, full.fields().get("authorized_tenants"));
    assertTrue(full.getMessage().endsWith("ids are not reused after unregister."), full.getMessage());
    assertTrue(full.getMessage().contains("Fix: "), full.getMessage());
  }

  @Test
  void theFullTableGivesTwentyEightIdsAndTheirWindowsStayUserOpcodes() {
    TenantRegistry registry = new TenantRegistry();
    Tenant last = null;
    for (int i = 0; i < ControlLayout.MAX_TENANTS - 1; i++) {
      last = registry.register("t" + i);
    }
    assertEquals(28, last.id());
    assertEquals(0x41C0_0000, last.baseOpcode());
    Opcodes.validateUserOpcode(last.globalOpcode(TenantRegistry.OPCODE_RANGE_PER_TENANT - 1));
    assertEquals(TenantException.Variant.RegistryFull, assertThrows(TenantException.class, () -> registry.register("one too many")).variant());
  }

  @Test
  void aRegistryWithOnlyTheHostsTenantRegistersNothing() {
    assertEquals(TenantException.Variant.RegistryFull, assertThrows(TenantException.class, () -> new TenantRegistry(1).register("a")).variant());
  }

  @Test
  void refusesAControlBlockOutsideTheMaskTable() {
    assertEquals(PipelineException.Variant.InvalidArgument, assertThrows(PipelineException.class, () -> new TenantRegistry(0)).variant());
    PipelineException tooMany = assertThrows(PipelineException.class, () -> new TenantRegistry(30));
    assertTrue(tooMany.getMessage().contains("outside 1..29"), tooMany.getMessage());
  }

  @Test
  void concurrentRegistrationAssignsUniqueIdsAndNeverOverflowsTheTable() throws InterruptedException {
    // vyre's vector races 32 threads; here 40 race for the 28 ids a full table authorizes.
    TenantRegistry registry = new TenantRegistry();
    int threads = 40;
    CountDownLatch start = new CountDownLatch(1);
    ConcurrentLinkedQueue<Integer> ids = new ConcurrentLinkedQueue<>();
    AtomicInteger full = new AtomicInteger();
    List<Thread> racers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      String label = "t" + i;
      racers.add(Thread.ofPlatform().start(() -> {
        try {
          start.await();
          ids.add(registry.register(label).id());
        } catch (TenantException e) {
          full.incrementAndGet();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }));
    }
    start.countDown();
    for (Thread racer : racers) {
      racer.join();
    }
    TreeSet<Integer> unique = new TreeSet<>(ids);
    assertEquals(ids.size(), unique.size(), "concurrent ids must be unique");
    assertEquals(28, unique.size());
    assertEquals(1, unique.first());
    assertEquals(28, unique.last());
    assertEquals(threads - 28, full.get());
    assertEquals(28, registry.activeTenants().size());
  }

  @Test
  void unregisterRevokesZeroesReservationsAndForgetsTheTenant() {
    TenantRegistry registry = new TenantRegistry();
    Tenant tenant = registry.registerWithQuotas("quota", TenantQuota.bounded(2, 16, 1));
    tenant.reserveStagingBytes(8);
    tenant.reserveResidentHandles(1);
    Tenant removed = registry.unregister(tenant.id()).orElseThrow();
    assertEquals(0, removed.quotaCounters().stagingBytes());
    assertEquals(0, removed.quotaCounters().residentHandles());
    assertTrue(removed.isRevoked());
    assertTrue(registry.lookup(tenant.id()).isEmpty());
    assertTrue(registry.unregister(tenant.id()).isEmpty(), "a second unregister finds nothing");
    assertEquals(TenantException.Variant.Revoked, assertThrows(TenantException.class, () -> tenant.reserveStagingBytes(1)).variant());
    assertEquals(TenantException.Variant.Revoked, assertThrows(TenantException.class, () -> tenant.reserveResidentHandles(1)).variant());
    assertEquals(TenantException.Variant.Revoked, assertThrows(TenantException.class, () -> tenant.globalOpcode(0)).variant());
    assertEquals(2, registry.register("next").id(), "ids are not reused");
  }

  @Test
  void lookupAndUnregisterOfIdsOutsideTheTableFindNothing() {
    TenantRegistry registry = new TenantRegistry();
    assertTrue(registry.lookup(-1).isEmpty());
    assertTrue(registry.lookup(29).isEmpty());
    assertTrue(registry.unregister(1000).isEmpty());
  }

  @Test
  void activeTenantsAndCountersTrackRegistrationsSortedById() {
    TenantRegistry registry = new TenantRegistry();
    Tenant a = registry.register("a");
    Tenant b = registry.register("b");
    Tenant c = registry.register("c");
    assertEquals(List.of(a, b, c), registry.activeTenants());
    registry.unregister(a.id());
    assertEquals(List.of(b, c), registry.activeTenants());
    assertEquals(List.of(b.id(), c.id()), registry.runtimeCounters().stream().map(TenantRuntimeCounters::tenantId).toList());
    assertEquals(b, registry.lookup(b.id()).orElseThrow());
  }

  @Test
  void concurrentSelectionRespectsConflicts() {
    TenantRegistry registry = new TenantRegistry();
    Tenant a = registry.register("a");
    Tenant b = registry.register("b");
    Tenant c = registry.register("c");
    int n = 3;
    int[] conflicts = new int[n * n];
    conflicts[0 * n + 1] = 1;
    conflicts[1 * n + 0] = 1;
    assertArrayEquals(new int[] {a.id(), c.id()}, registry.selectConcurrentTenants(conflicts));
  }

  @Test
  void aOneWayConflictStillKeepsThePairApart() {
    TenantRegistry registry = new TenantRegistry();
    Tenant a = registry.register("a");
    registry.register("b");
    Tenant c = registry.register("c");
    int[] conflicts = new int[9];
    conflicts[1 * 3 + 0] = 1;
    assertArrayEquals(new int[] {a.id(), c.id()}, registry.selectConcurrentTenants(conflicts));
  }

  @Test
  void selectionWithoutConflictsOrWithAMismatchedAdjacencySelectsEveryTenant() {
    TenantRegistry registry = new TenantRegistry();
    Tenant a = registry.register("a");
    Tenant b = registry.register("b");
    Tenant c = registry.register("c");
    int[] all = {a.id(), b.id(), c.id()};
    assertArrayEquals(all, registry.selectConcurrentTenants(new int[9]));
    assertArrayEquals(all, registry.selectConcurrentTenants(new int[] {1, 1, 1, 1}));
    assertArrayEquals(new int[0], new TenantRegistry().selectConcurrentTenants(new int[] {1}));
  }

  @Test
  void selectionIsOverRegisteredTenantsOnly() {
    TenantRegistry registry = new TenantRegistry();
    Tenant a = registry.register("a");
    Tenant b = registry.register("b");
    Tenant c = registry.register("c");
    registry.unregister(a.id());
    // Two active tenants: a 2 x 2 adjacency in which b and c conflict keeps b.
    assertArrayEquals(new int[] {b.id()}, registry.selectConcurrentTenants(new int[] {0, 1, 1, 0}));
    assertFalse(registry.lookup(a.id()).isPresent());
    assertEquals(c, registry.lookup(c.id()).orElseThrow());
  }
}
