package dev.vyre.runtime.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.TenantRing;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** docs/PROTOCOL.md, "Tenants": opcode windows, publishing, backpressure, quotas, drains and quiesce. */
class TenantTest {

  private static MemorySegment emptyRing(int slots) {
    return MemorySegment.ofArray(SlotLayout.encodeEmptyRing(slots));
  }

  @Test
  void globalOpcodeMapsInsideTheWindowAndRejectsOutside() {
    Tenant tenant = new TenantRegistry().register("soleno");
    assertEquals(tenant.baseOpcode() + 42, tenant.globalOpcode(42));
    TenantException error = assertThrows(TenantException.class, () -> tenant.globalOpcode(TenantRegistry.OPCODE_RANGE_PER_TENANT));
    assertEquals(TenantException.Variant.OpcodeOutOfRange, error.variant());
    assertEquals((long) tenant.id(), error.fields().get("tenant_id"));
    assertEquals(1L << 20, error.fields().get("local_opcode"));
    assertEquals(1L << 20, error.fields().get("cap"));
    assertEquals("tenant 1 published local opcode 1048576; out of range [0, 1048576). Fix: caller must stay inside the opcode"
        + " window returned by `register()`.", error.getMessage());
    assertEquals(TenantException.Variant.OpcodeOutOfRange, assertThrows(TenantException.class, () -> tenant.globalOpcode(-1)).variant(),
        "a local opcode is a u32");
  }

  @Test
  void publishSlotWritesTheTenantIdAndGlobalOpcodeAndCounts() {
    Tenant tenant = new TenantRegistry().register("warpscan");
    MemorySegment ring = emptyRing(4);
    tenant.publishSlot(ring, 0, 7, 1, 2, 3);
    assertEquals(1, tenant.publishedCount());
    assertEquals(tenant.id(), Words.get(ring, SlotLayout.TENANT_WORD));
    assertEquals(tenant.baseOpcode() + 7, Words.get(ring, SlotLayout.OPCODE_WORD));
    assertEquals(SlotLayout.STATUS_PUBLISHED, Words.get(ring, SlotLayout.STATUS_WORD));
    assertEquals(3, Words.get(ring, SlotLayout.argWord(0, 2)));
  }

  @Test
  void unregisterBlocksFuturePublishes() {
    TenantRegistry registry = new TenantRegistry();
    Tenant tenant = registry.register("vein");
    MemorySegment ring = emptyRing(2);
    tenant.publishSlot(ring, 0, 0, 0, 0, 0);
    registry.unregister(tenant.id()).orElseThrow();
    TenantException error = assertThrows(TenantException.class, () -> tenant.publishSlot(ring, 1, 0, 0, 0, 0));
    assertEquals(TenantException.Variant.Revoked, error.variant());
    assertEquals("tenant 1 was revoked; handle is stale. Fix: acquire a fresh handle from the registry.", error.getMessage());
    assertEquals(SlotLayout.STATUS_EMPTY, Words.get(ring, SlotLayout.statusWord(1)));
  }

  @Test
  void boundedTenantBackpressureRejectsTheThirdOutstandingPublish() {
    Tenant tenant = new TenantRegistry().registerWithBackpressure("bounded", 2);
    MemorySegment ring = emptyRing(4);
    tenant.publishSlot(ring, 0, 0, 1);
    tenant.publishSlot(ring, 1, 0, 2);
    TenantException error = assertThrows(TenantException.class, () -> tenant.publishSlot(ring, 2, 0, 3));
    assertEquals(TenantException.Variant.Backpressure, error.variant());
    assertEquals(2L, error.fields().get("outstanding"));
    assertEquals(2L, error.fields().get("cap"));
    assertTrue(error.isBackpressure());
    assertEquals(2, tenant.publishedCount());
    TenantRuntimeCounters counters = tenant.runtimeCounters();
    assertEquals(2, counters.maxOutstandingSlots());
    assertEquals(2, counters.outstandingSlots());
    assertEquals(SlotLayout.STATUS_EMPTY, Words.get(ring, SlotLayout.statusWord(2)), "a refused publish writes nothing");
  }

  @Test
  void backpressureReopensAfterDrainProgress() {
    Tenant tenant = new TenantRegistry().registerWithBackpressure("bounded", 1);
    MemorySegment ring = emptyRing(2);
    tenant.publishSlot(ring, 0, 0, 1);
    assertEquals(TenantException.Variant.Backpressure, assertThrows(TenantException.class, () -> tenant.publishSlot(ring, 1, 0, 2)).variant());
    tenant.noteDrained(1);
    tenant.publishSlot(ring, 1, 0, 2);
    assertEquals(2, tenant.publishedCount());
    assertEquals(1, tenant.runtimeCounters().outstandingSlots());
  }

  @Test
  void aZeroCapIsRaisedToOne() {
    Tenant tenant = new TenantRegistry().registerWithQuotas("zero", TenantQuota.bounded(0, 0, 0));
    assertEquals(1, tenant.maxOutstandingSlots());
    assertEquals(1, tenant.quotaCounters().maxStagingBytes());
    assertEquals(1, tenant.quotaCounters().maxResidentHandles());
    assertEquals(-1L, new TenantRegistry().register("unbounded").maxOutstandingSlots(), "u64::MAX");
  }

  @Test
  void aPublishTheRingRefusesIsRolledBack() {
    Tenant tenant = new TenantRegistry().registerWithBackpressure("bounded", 1);
    MemorySegment ring = emptyRing(1);
    assertThrows(PipelineException.class, () -> tenant.publishSlot(ring, 5, 0));
    assertEquals(0, tenant.publishedCount(), "the refused slot does not count");
    tenant.publishSlot(ring, 0, 0);
    assertEquals(1, tenant.publishedCount());
  }

  @Test
  void resourceQuotasRejectOvercommitAndUnderflow() {
    Tenant tenant = new TenantRegistry().registerWithQuotas("quota", TenantQuota.bounded(2, 16, 1));
    tenant.reserveStagingBytes(8);
    TenantException staging = assertThrows(TenantException.class, () -> tenant.reserveStagingBytes(9));
    assertEquals(TenantException.Variant.StagingBackpressure, staging.variant());
    assertEquals(9L, staging.fields().get("requested"));
    assertEquals(8L, staging.fields().get("used"));
    assertEquals(16L, staging.fields().get("cap"));
    assertEquals(8, tenant.quotaCounters().stagingBytes());

    tenant.releaseStagingBytes(4);
    tenant.reserveStagingBytes(12);
    assertEquals(16, tenant.quotaCounters().stagingBytes());
    TenantException underflow = assertThrows(TenantException.class, () -> tenant.releaseStagingBytes(17));
    assertEquals(TenantException.Variant.ResourceUnderflow, underflow.variant());
    assertEquals("staging bytes", underflow.fields().get("resource"));
    assertEquals(17L, underflow.fields().get("requested"));
    assertEquals(16L, underflow.fields().get("used"));
    assertEquals(16, tenant.quotaCounters().stagingBytes(), "a refused release changes nothing");

    tenant.reserveResidentHandles(1);
    TenantException handles = assertThrows(TenantException.class, () -> tenant.reserveResidentHandles(1));
    assertEquals(TenantException.Variant.ResidentHandleBackpressure, handles.variant());
    assertEquals(1L, handles.fields().get("requested"));
    assertEquals(1L, handles.fields().get("cap"));
    assertEquals(1, tenant.quotaCounters().residentHandles());
    assertEquals("resident handles",
        assertThrows(TenantException.class, () -> tenant.releaseResidentHandles(2)).fields().get("resource"));
    tenant.releaseResidentHandles(1);
    assertEquals(0, tenant.quotaCounters().residentHandles());
  }

  @Test
  void aReservationThatWouldWrapIsRefusedNotWrapped() {
    Tenant tenant = new TenantRegistry().register("huge");
    tenant.reserveStagingBytes(-2L);
    TenantException error = assertThrows(TenantException.class, () -> tenant.reserveStagingBytes(2));
    assertEquals(TenantException.Variant.CounterOverflow, error.variant());
    assertTrue(error.getMessage().contains("Fix: "), error.getMessage());
    assertEquals(-2L, tenant.quotaCounters().stagingBytes());
  }

  @Test
  void quiesceReturnsWhenDrainedCatchesUp() {
    Tenant tenant = new TenantRegistry().register("t1");
    MemorySegment ring = emptyRing(2);
    tenant.publishSlot(ring, 0, 0, 1, 2, 3);
    tenant.publishSlot(ring, 1, 0, 4, 5, 6);
    tenant.noteDrained(2);
    tenant.quiesce(1);
    TenantRuntimeCounters counters = tenant.runtimeCounters();
    assertEquals(2, counters.publishedCount());
    assertEquals(2, counters.drainedCount());
    assertEquals(0, counters.outstandingSlots());
    assertEquals(1, counters.quiesceCalls());
    assertEquals(0, counters.quiesceTimeouts());
  }

  @Test
  void quiesceTimesOutWhenTheDrainStalls() {
    Tenant tenant = new TenantRegistry().register("t2");
    tenant.publishSlot(emptyRing(1), 0, 0, 0, 0, 0);
    TenantException error = assertThrows(TenantException.class, () -> tenant.quiesce(4));
    assertEquals(TenantException.Variant.QuiesceTimeout, error.variant());
    assertEquals(1L, error.fields().get("outstanding"));
    TenantRuntimeCounters counters = tenant.runtimeCounters();
    assertEquals(1, counters.outstandingSlots());
    assertEquals(1, counters.quiesceCalls());
    assertEquals(1, counters.quiesceTimeouts());
  }

  @Test
  void quiesceWithZeroPollsTimesOutEvenWhenDrainedAsInVyre() {
    Tenant tenant = new TenantRegistry().register("t3");
    TenantException error = assertThrows(TenantException.class, () -> tenant.quiesce(0));
    assertEquals(0L, error.fields().get("outstanding"));
  }

  @Test
  void quiescePastTheSpinningPollsParksAndStillTimesOut() {
    Tenant tenant = new TenantRegistry().register("t4");
    tenant.publishSlot(emptyRing(1), 0, 0);
    assertThrows(TenantException.class, () -> tenant.quiesce(Tenant.QUIESCE_SPIN_POLLS + 3));
    assertEquals(1, tenant.runtimeCounters().quiesceTimeouts());
    assertTrue(tenant.runtimeCounters().quiesceWaitNs() > 0);
  }

  @Test
  void quiesceBackoffSpinsThenDoublesFromTwoToFiftyMicroseconds() {
    assertEquals(2_000, Tenant.quiesceBackoffNanos(0));
    assertEquals(2_000, Tenant.quiesceBackoffNanos(Tenant.QUIESCE_SPIN_POLLS));
    assertEquals(4_000, Tenant.quiesceBackoffNanos(Tenant.QUIESCE_SPIN_POLLS + 1));
    assertEquals(32_000, Tenant.quiesceBackoffNanos(Tenant.QUIESCE_SPIN_POLLS + 4));
    assertEquals(50_000, Tenant.quiesceBackoffNanos(Tenant.QUIESCE_SPIN_POLLS + 5));
    assertEquals(50_000, Tenant.quiesceBackoffNanos(-1L), "u64::MAX polls");
    long previous = 0;
    for (long poll = 0; poll < 200; poll++) {
      long park = Tenant.quiesceBackoffNanos(poll);
      assertTrue(park >= previous && park <= 50_000, "poll " + poll);
      previous = park;
    }
  }

  @Test
  void quiescesWaitSpinsThenParksAsTheBackoffSays() {
    var wait = Tenant.quiesceWait();
    for (long poll = 0; poll < Tenant.QUIESCE_SPIN_POLLS + 12; poll++) {
      assertEquals(poll >= Tenant.QUIESCE_SPIN_POLLS, wait.parking(), "poll " + poll);
      if (wait.parking()) {
        assertEquals(Tenant.quiesceBackoffNanos(poll), wait.nextParkNanos(), "poll " + poll);
      }
      wait.idle();
    }
  }

  @Test
  void drainsBeyondWhatWasPublishedAreACounterError() {
    Tenant tenant = new TenantRegistry().register("t5");
    tenant.noteDrained(1);
    TenantException error = assertThrows(TenantException.class, () -> tenant.publishSlot(emptyRing(1), 0, 0));
    assertEquals(TenantException.Variant.CounterOverflow, error.variant());
    assertEquals(0, tenant.runtimeCounters().outstandingSlots(), "counters saturate");
  }

  // ---------------------------------------------------------------- publishing into a ring

  /** A ring that records what it was given and finishes tasks when the test says so. */
  private static final class RecordingRing implements TenantRing {
    final List<int[]> published = new ArrayList<>();
    final List<Long> allocated = new ArrayList<>();
    final Map<Integer, Long> readQuotas = new HashMap<>();
    long quotaRefusals;
    boolean authorized = true;
    long retired;
    RuntimeException refuse;

    @Override
    public int authorizedTenants() {
      return 4;
    }

    @Override
    public boolean authorized(int tenant) {
      return authorized;
    }

    @Override
    public long publish(int tenant, Priority priority, int opcode, int[] args) {
      if (refuse != null) {
        throw refuse;
      }
      published.add(new int[] {tenant, priority.level(), opcode, args.length == 0 ? -1 : args[0]});
      return published.size() - 1;
    }

    @Override
    public long publish(int tenant, TaskBatch batch) {
      if (refuse != null) {
        throw refuse;
      }
      long first = published.size();
      for (int i = 0; i < batch.size(); i++) {
        published.add(new int[] {batch.tenant(i), batch.priority().level(), batch.opcode(i), -1});
      }
      return first;
    }

    @Override
    public CompletableFuture<TaskResult> submit(int tenant, Priority priority, int opcode, int[] args) {
      publish(tenant, priority, opcode, args);
      return new CompletableFuture<>();
    }

    @Override
    public long retired(int tenant) {
      return retired;
    }

    @Override
    public int allocateResource(long byteSize, ResourcePlacement placement) {
      allocated.add(byteSize);
      return allocated.size() - 1;
    }

    @Override
    public void setReadQuota(int tenant, long maxBytes) {
      readQuotas.put(tenant, maxBytes);
    }

    @Override
    public void countQuotaRefusal() {
      quotaRefusals++;
    }
  }

  @Test
  void publishMapsTheOpcodeAndWritesTheTenantWord() {
    RecordingRing ring = new RecordingRing();
    TenantRegistry registry = new TenantRegistry(ring);
    assertEquals(4, registry.authorizedTenants());
    Tenant tenant = registry.register("a");
    assertEquals(0, tenant.publish(Priority.HIGH, 7, 99));
    tenant.submit(Priority.LOW, 8);
    assertEquals(List.of(tenant.id(), Priority.HIGH.level(), tenant.baseOpcode() + 7, 99),
        List.of(ring.published.get(0)[0], ring.published.get(0)[1], ring.published.get(0)[2], ring.published.get(0)[3]));
    assertEquals(tenant.baseOpcode() + 8, ring.published.get(1)[2]);
    assertEquals(2, tenant.publishedCount());
  }

  @Test
  void aBatchIsPublishedWholeUnderTheCapOrNotAtAll() {
    RecordingRing ring = new RecordingRing();
    TenantRegistry registry = new TenantRegistry(ring);
    Tenant tenant = registry.registerWithBackpressure("batches", 4);
    TaskBatch batch = new TaskBatch(8);
    tenant.add(tenant.add(tenant.add(batch, 7, 1), 8, 2), 9);
    assertEquals(0, tenant.publish(batch));
    assertEquals(List.of(tenant.baseOpcode() + 7, tenant.baseOpcode() + 8, tenant.baseOpcode() + 9),
        ring.published.stream().map(task -> task[2]).toList());
    assertEquals(3, tenant.publishedCount());
    assertEquals(-1, tenant.publish(new TaskBatch(1)), "an empty batch publishes nothing");

    // Two more do not fit under the cap of 4 while 3 are outstanding: nothing is published.
    batch.clear();
    tenant.add(tenant.add(batch, 7), 7);
    TenantException refused = assertThrows(TenantException.class, () -> tenant.publish(batch));
    assertEquals(TenantException.Variant.Backpressure, refused.variant());
    assertEquals(3L, refused.fields().get("outstanding"));
    assertEquals(3, tenant.publishedCount());
    assertEquals(3, ring.published.size());
    ring.retired = 1;
    assertEquals(3, tenant.publish(batch), "one drained: both fit");
    assertEquals(5, tenant.publishedCount());

    TaskBatch tooBig = new TaskBatch(5);
    for (int i = 0; i < 5; i++) {
      tenant.add(tooBig, 1);
    }
    assertEquals(TenantException.Variant.BatchOverCap, assertThrows(TenantException.class, () -> tenant.publish(tooBig)).variant());

    // A task that is not this tenant's refuses the whole batch, and names itself.
    Tenant other = registry.register("other");
    TaskBatch mixed = new TaskBatch(2);
    tenant.add(mixed, 1);
    other.add(mixed, 1);
    TenantException foreign = assertThrows(TenantException.class, () -> tenant.publish(mixed));
    assertEquals(TenantException.Variant.ForeignTask, foreign.variant());
    assertEquals(1L, foreign.fields().get("index"));
    assertEquals((long) other.id(), foreign.fields().get("task_tenant"));
    assertTrue(foreign.getMessage().contains("Fix: "), foreign.getMessage());
    TaskBatch hostTask = new TaskBatch(1).add(tenant.id(), 0x1234);
    assertEquals(TenantException.Variant.ForeignTask, assertThrows(TenantException.class, () -> tenant.publish(hostTask)).variant(),
        "an opcode outside the tenant's window");
    assertEquals(5, tenant.publishedCount());

    // A ring that refuses rolls the whole batch back.
    ring.refuse = new IllegalStateException("ring closed");
    ring.retired = 5;
    TaskBatch two = tenant.add(tenant.add(new TaskBatch(2), 1), 2);
    assertThrows(IllegalStateException.class, () -> tenant.publish(two));
    assertEquals(5, tenant.publishedCount());
  }

  @Test
  void quotasRefuseAtPublishAndAllocationCountEachRefusalAndSetTheReadQuota() {
    RecordingRing ring = new RecordingRing();
    TenantRegistry registry = new TenantRegistry(ring);
    Tenant bounded = registry.registerWithQuotas("bounded", TenantQuota.bounded(1, 4096, 1));
    Tenant free = registry.register("free");
    assertEquals(Map.of(bounded.id(), 4096L, free.id(), TenantQuota.UNBOUNDED), ring.readQuotas,
        "registration hands the staging quota to the kernel as the read quota");

    bounded.publish(Priority.NORMAL, 0);
    assertEquals(TenantException.Variant.Backpressure,
        assertThrows(TenantException.class, () -> bounded.publish(Priority.NORMAL, 0)).variant());
    TaskBatch two = bounded.add(bounded.add(new TaskBatch(2), 0), 0);
    assertEquals(TenantException.Variant.BatchOverCap, assertThrows(TenantException.class, () -> bounded.publish(two)).variant());

    assertEquals(0, bounded.allocateResource(4096, ResourcePlacement.HOST_MAPPED));
    TenantException staging = assertThrows(TenantException.class, () -> bounded.allocateResource(1, ResourcePlacement.HOST_MAPPED));
    assertEquals(TenantException.Variant.StagingBackpressure, staging.variant());
    assertTrue(staging.getMessage().contains("Fix: "), staging.getMessage());
    assertEquals(1, bounded.allocateResource(1 << 20, ResourcePlacement.DEVICE), "DEVICE bytes are resident, counted as one handle");
    assertEquals(TenantException.Variant.ResidentHandleBackpressure,
        assertThrows(TenantException.class, () -> bounded.allocateResource(1, ResourcePlacement.DEVICE)).variant());
    assertEquals(List.of(4096L, 1L << 20), ring.allocated, "a refused allocation allocates nothing");
    assertEquals(new TenantQuotaCounters(bounded.id(), 4096, 4096, 1, 1), bounded.quotaCounters());
    assertEquals(4, bounded.quotaRefusals());
    assertEquals(4, ring.quotaRefusals, "each refusal reaches the kernel's stats");

    free.publish(Priority.NORMAL, 0);
    free.publish(Priority.NORMAL, 0);
    free.allocateResource(1 << 20, ResourcePlacement.HOST_MAPPED);
    free.allocateResource(1, ResourcePlacement.DEVICE);
    free.allocateResource(1, ResourcePlacement.DEVICE);
    assertEquals(0, free.quotaRefusals(), "another tenant's quota holds nobody else back");
    assertEquals(4, ring.quotaRefusals);
  }

  @Test
  void drainsComeFromTheRingAndReopenBackpressure() {
    RecordingRing ring = new RecordingRing();
    Tenant tenant = new TenantRegistry(ring).registerWithBackpressure("bounded", 2);
    tenant.publish(Priority.NORMAL, 0);
    tenant.publish(Priority.NORMAL, 0);
    TenantException error = assertThrows(TenantException.class, () -> tenant.publish(Priority.NORMAL, 0));
    assertEquals(2L, error.fields().get("outstanding"));
    ring.retired = 1;
    tenant.publish(Priority.NORMAL, 0);
    assertEquals(3, tenant.publishedCount());
    assertEquals(1, tenant.drainedCount());
    ring.retired = 3;
    tenant.quiesce(1);
    assertEquals(3, tenant.runtimeCounters().drainedCount(), "each retired task is counted once");
  }

  @Test
  void aTenantTheControlBlockNoLongerAuthorizesCannotPublish() {
    RecordingRing ring = new RecordingRing();
    Tenant tenant = new TenantRegistry(ring).register("a");
    ring.authorized = false;
    TenantException error = assertThrows(TenantException.class, () -> tenant.publish(Priority.NORMAL, 0));
    assertEquals(TenantException.Variant.Unauthorized, error.variant());
    assertTrue(error.getMessage().endsWith("Fix: authorize it again with Megakernel.setTenantAuthorized(1, true) before publishing."),
        error.getMessage());
    assertEquals(0, tenant.publishedCount());
    assertTrue(ring.published.isEmpty());
  }

  @Test
  void aPublishTheKernelRefusesIsRolledBack() {
    RecordingRing ring = new RecordingRing();
    Tenant tenant = new TenantRegistry(ring).registerWithBackpressure("bounded", 1);
    ring.refuse = PipelineException.queueFull("submission", "full", "wait");
    assertThrows(PipelineException.class, () -> tenant.publish(Priority.NORMAL, 0));
    assertThrows(PipelineException.class, () -> tenant.submit(Priority.NORMAL, 0));
    assertEquals(0, tenant.publishedCount());
    ring.refuse = null;
    tenant.publish(Priority.NORMAL, 0);
    assertEquals(1, tenant.publishedCount());
  }

  @Test
  void aTenantWithoutAKernelPublishesOnlyIntoItsOwnRing() {
    Tenant tenant = new TenantRegistry().register("standalone");
    TenantException error = assertThrows(TenantException.class, () -> tenant.publish(Priority.NORMAL, 0));
    assertEquals(TenantException.Variant.Unbound, error.variant());
    assertFalse(error.getMessage().isEmpty());
    assertEquals(0, tenant.publishedCount());
  }

  @Test
  void revokedAndOutOfWindowPublishesAreRefusedBeforeTheRingSeesThem() {
    RecordingRing ring = new RecordingRing();
    TenantRegistry registry = new TenantRegistry(ring);
    Tenant tenant = registry.register("a");
    assertEquals(TenantException.Variant.OpcodeOutOfRange, assertThrows(TenantException.class,
        () -> tenant.publish(Priority.NORMAL, TenantRegistry.OPCODE_RANGE_PER_TENANT)).variant());
    registry.unregister(tenant.id());
    assertEquals(TenantException.Variant.Revoked, assertThrows(TenantException.class, () -> tenant.publish(Priority.NORMAL, 0)).variant());
    assertTrue(ring.published.isEmpty());
  }

  @Test
  void everyMessageEndsWithAFix() {
    List<TenantException> errors = List.of(TenantException.registryFull(28, 29), TenantException.opcodeOutOfRange(1, 5, 4),
        TenantException.revoked(1), TenantException.quiesceTimeout(1, 3), TenantException.backpressure(1, 2, 2),
        TenantException.stagingBackpressure(1, 9, 8, 16), TenantException.residentHandleBackpressure(1, 1, 1, 1),
        TenantException.resourceUnderflow(1, "staging bytes", 17, 16), TenantException.unauthorized(1),
        TenantException.unbound(1), TenantException.counterOverflow(1, "published_count", "recreate the tenant"));
    for (TenantException error : errors) {
      assertTrue(error.getMessage().contains(". Fix: "), error.getMessage());
      assertTrue(error.getMessage().endsWith("."), error.getMessage());
      assertEquals("TenantError", error.errorType());
    }
  }
}
