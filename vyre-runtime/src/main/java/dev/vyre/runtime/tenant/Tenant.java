package dev.vyre.runtime.tenant;

import dev.vyre.driver.AtomicAccounting;
import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.IdleStrategy;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.TenantRing;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.RingPublisher;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One registered tenant (vyre's {@code TenantHandle}): its id, which is the slot's tenant word, its
 * window of {@link TenantRegistry#OPCODE_RANGE_PER_TENANT} opcodes, and its accounting: slots
 * published and drained (backpressure once {@code published - drained} reaches the cap), staging
 * bytes and resident handles reserved against their quotas, and how many requests a quota refused
 * (docs/PROTOCOL.md, "Tenant quotas"). Thread-safe: any number of threads may publish through one
 * tenant; counters are updated by compare-and-set and never wrap.
 *
 * <p>A tenant of {@code TenantRegistry.of(kernel)} publishes into that kernel with
 * {@link #publish} and {@link #submit}; the kernel's retire step counts each finished task, and the
 * tenant takes those counts as drained whenever it needs them (backpressure, quiesce, counters), so
 * callers do not call {@link #noteDrained} for those tasks.
 */
public final class Tenant {

  /** Polls that spin before {@link #quiesce} starts to park. */
  static final long QUIESCE_SPIN_POLLS = 64;
  static final long QUIESCE_MIN_PARK_NANOS = 2_000;
  static final long QUIESCE_MAX_PARK_NANOS = 50_000;
  private static final int QUIESCE_BACKOFF_SHIFT_CAP = 5;

  private final int id;
  private final String label;
  private final int baseOpcode;
  private final long maxOutstandingSlots;
  private final long maxStagingBytes;
  private final long maxResidentHandles;
  /** Null for a registry without a kernel: then only {@link #publishSlot} publishes. */
  private final TenantRing ring;
  private final AtomicLong published = new AtomicLong();
  private final AtomicLong drained = new AtomicLong();
  /** The ring's retired count already taken into {@link #drained}. */
  private final AtomicLong ringRetiredSeen = new AtomicLong();
  private final AtomicLong stagingBytes = new AtomicLong();
  private final AtomicLong residentHandles = new AtomicLong();
  private final AtomicLong quiesceCalls = new AtomicLong();
  private final AtomicLong quiesceTimeouts = new AtomicLong();
  private final AtomicLong quiesceWaitNs = new AtomicLong();
  private final AtomicLong quotaRefusals = new AtomicLong();
  private volatile boolean revoked;

  Tenant(int id, String label, TenantQuota quota, TenantRing ring) {
    TenantQuota caps = quota.normalized();
    this.id = id;
    this.label = label;
    this.baseOpcode = TenantRegistry.TENANT_OPCODE_BASE + id * TenantRegistry.OPCODE_RANGE_PER_TENANT;
    this.maxOutstandingSlots = caps.maxOutstandingSlots();
    this.maxStagingBytes = caps.maxStagingBytes();
    this.maxResidentHandles = caps.maxResidentHandles();
    this.ring = ring;
  }

  /** The tenant id: the slot's tenant word and its mask-table index. */
  public int id() {
    return id;
  }

  public String label() {
    return label;
  }

  /** The first global opcode of this tenant's window. */
  public int baseOpcode() {
    return baseOpcode;
  }

  /** Local opcodes run from 0 to this, exclusive. */
  public int opcodeCap() {
    return TenantRegistry.OPCODE_RANGE_PER_TENANT;
  }

  public boolean isRevoked() {
    return revoked;
  }

  /**
   * The global opcode of local opcode {@code local} (u32): {@code baseOpcode() + local}.
   *
   * @throws TenantException {@code Revoked}, or {@code OpcodeOutOfRange} when local is outside the window
   */
  public int globalOpcode(int local) {
    ensureNotRevoked();
    if (Integer.compareUnsigned(local, TenantRegistry.OPCODE_RANGE_PER_TENANT) >= 0) {
      throw TenantException.opcodeOutOfRange(id, local, TenantRegistry.OPCODE_RANGE_PER_TENANT);
    }
    int global = baseOpcode + local;
    // Every window lies inside the user range (ids stop at 28), so this only guards the arithmetic.
    Opcodes.validateUserOpcode(global);
    return global;
  }

  // ---------------------------------------------------------------- publishing

  /**
   * Publishes local opcode {@code local} into the kernel this tenant's registry belongs to and
   * returns the ticket ({@code Megakernel.await} waits for it). Allocates nothing but the call's
   * varargs array; the overloads for up to three arguments, and a {@link TaskBatch} ({@link #add},
   * {@link #publish(TaskBatch)}), avoid that too.
   *
   * @throws TenantException {@code Unbound}, {@code Revoked}, {@code OpcodeOutOfRange},
   *     {@code Unauthorized} (the control block's mask word for this id is zero), or
   *     {@code Backpressure} when {@code published - drained} has reached the cap
   */
  public long publish(Priority priority, int local, int... args) {
    return publishOne(priority, local, args, 0, 0, 0);
  }

  /** {@link #publish(Priority, int, int...)} without arguments; allocation-free. */
  public long publish(Priority priority, int local) {
    return publishOne(priority, local, null, 0, 0, 0);
  }

  /** {@link #publish(Priority, int, int...)} with one argument; allocation-free. */
  public long publish(Priority priority, int local, int arg0) {
    return publishOne(priority, local, null, arg0, 0, 0);
  }

  /** {@link #publish(Priority, int, int...)} with two arguments; allocation-free. */
  public long publish(Priority priority, int local, int arg0, int arg1) {
    return publishOne(priority, local, null, arg0, arg1, 0);
  }

  /** {@link #publish(Priority, int, int...)} with three arguments; allocation-free. */
  public long publish(Priority priority, int local, int arg0, int arg1, int arg2) {
    return publishOne(priority, local, null, arg0, arg1, arg2);
  }

  /** The arguments are {@code args}, or when it is null {@code arg0..arg2} (the rest 0). */
  private long publishOne(Priority priority, int local, int[] args, int arg0, int arg1, int arg2) {
    int global = checkPublish(local);
    reserveOutstandingSlots(1);
    try {
      return args == null ? ring.publish(id, priority, global, arg0, arg1, arg2) : ring.publish(id, priority, global, args);
    } catch (RuntimeException e) {
      rollbackPublish(1);
      throw e;
    }
  }

  /**
   * Appends local opcode {@code local} to {@code batch} as this tenant's task (its id, the global
   * opcode); returns the batch. Publish it with {@link #publish(TaskBatch)}.
   */
  public TaskBatch add(TaskBatch batch, int local, int... args) {
    return batch.add(id, globalOpcode(local), args);
  }

  /**
   * Publishes a batch of this tenant's tasks (filled with {@link #add}) into consecutive slots with
   * one doorbell update, and returns the first task's ticket ({@code Megakernel.batchTicket} names
   * the others); -1 for an empty batch. The whole batch counts against the cap at once: it is
   * published whole or not at all. The batch must not change until this returns. Allocation-free.
   *
   * @throws TenantException {@code ForeignTask} for a task that is not this tenant's,
   *     {@code BatchOverCap} for a batch larger than the cap, {@code Backpressure} when it does not
   *     fit under the cap now, and as {@link #publish(Priority, int, int...)}
   */
  public long publish(TaskBatch batch) {
    int n = batch.size();
    if (n == 0) {
      return -1;
    }
    requireRing();
    ensureNotRevoked();
    requireAuthorized();
    int windowEnd = baseOpcode + TenantRegistry.OPCODE_RANGE_PER_TENANT;
    for (int i = 0; i < n; i++) {
      int opcode = batch.opcode(i);
      if (batch.tenant(i) != id || opcode < baseOpcode || opcode >= windowEnd) {
        throw TenantException.foreignTask(id, i, batch.tenant(i), opcode);
      }
    }
    if (Long.compareUnsigned(n, maxOutstandingSlots) > 0) {
      throw refused(TenantException.batchOverCap(id, n, maxOutstandingSlots));
    }
    reserveOutstandingSlots(n);
    try {
      return ring.publish(id, batch);
    } catch (RuntimeException e) {
      rollbackPublish(n);
      throw e;
    }
  }

  /** Like {@link #publish}, with a future that completes with how the task ended. */
  public CompletableFuture<TaskResult> submit(Priority priority, int local, int... args) {
    int global = checkPublish(local);
    reserveOutstandingSlots(1);
    try {
      return ring.submit(id, priority, global, args);
    } catch (RuntimeException e) {
      rollbackPublish(1);
      throw e;
    }
  }

  /** Checks a publish into the kernel (bound, not revoked, opcode in the window, authorized); returns the global opcode. */
  private int checkPublish(int local) {
    requireRing();
    int global = globalOpcode(local);
    requireAuthorized();
    return global;
  }

  private void requireRing() {
    if (ring == null) {
      throw TenantException.unbound(id);
    }
  }

  private void requireAuthorized() {
    if (!ring.authorized(id)) {
      throw TenantException.unauthorized(id);
    }
  }

  /**
   * vyre's {@code publish_slot}: publishes into slot {@code slot} of a ring of the caller's own
   * (no kernel), with this tenant's id and the global opcode of {@code local}. The caller notes
   * drains with {@link #noteDrained}.
   */
  public void publishSlot(MemorySegment ringBytes, long slot, int local, int... args) {
    int global = globalOpcode(local);
    reserveOutstandingSlots(1);
    try {
      RingPublisher.publishSlot(ringBytes, slot, id, global, args);
    } catch (RuntimeException e) {
      rollbackPublish(1);
      throw e;
    }
  }

  /** Counts {@code count} more published slots unless they would take {@code published - drained} past the cap. */
  private void reserveOutstandingSlots(int count) {
    while (true) {
      // Drained first: it never passes a later read of published (drains follow publishes).
      long drainedNow = drained.get();
      long current = published.get();
      long outstanding = outstanding(current, drainedNow);
      if (Unsigned.addOverflows(outstanding, count) || Long.compareUnsigned(outstanding + count, maxOutstandingSlots) > 0) {
        // The kernel may have finished some since they were last counted, or another thread may
        // have taken those counts in meanwhile.
        if (takeRingDrains() || drained.get() != drainedNow) {
          continue;
        }
        throw refused(TenantException.backpressure(id, outstanding, maxOutstandingSlots));
      }
      if (Unsigned.addOverflows(current, count)) {
        throw TenantException.counterOverflow(id, "published_count",
            "quiesce or recreate the tenant before publishing more slots");
      }
      if (published.compareAndSet(current, current + count)) {
        return;
      }
    }
  }

  private void rollbackPublish(int count) {
    AtomicAccounting.saturatingSub(published, count);
  }

  /** Counts a request a quota refused, here and in the kernel's stats, and returns the refusal to throw. */
  private TenantException refused(TenantException refusal) {
    AtomicAccounting.saturatingAdd(quotaRefusals, 1);
    if (ring != null) {
      ring.countQuotaRefusal();
    }
    return refusal;
  }

  private long outstanding(long publishedCount, long drainedCount) {
    if (Unsigned.subUnderflows(publishedCount, drainedCount)) {
      throw TenantException.counterOverflow(id, "drained_count (" + Long.toUnsignedString(drainedCount)
          + ") exceeds published_count (" + Long.toUnsignedString(publishedCount) + ") and",
          "note only drains of slots this tenant published; rebuild the tenant's accounting by registering it again");
    }
    return publishedCount - drainedCount;
  }

  // ---------------------------------------------------------------- draining

  /**
   * Counts {@code count} of this tenant's slots as drained: the host pump calls it when it sees
   * them finish. A kernel's tenants need not: their drains come from the kernel.
   */
  public void noteDrained(long count) {
    // Allocation-free: this runs every time a publisher at its cap takes the kernel's drains.
    AtomicAccounting.saturatingAdd(drained, count);
  }

  /** Takes the kernel's count of finished tasks into {@link #drained}; true if it moved. */
  private boolean takeRingDrains() {
    if (ring == null) {
      return false;
    }
    long retired = ring.retired(id);
    long seen = ringRetiredSeen.get();
    while (retired > seen) {
      if (ringRetiredSeen.compareAndSet(seen, retired)) {
        noteDrained(retired - seen);
        return true;
      }
      seen = ringRetiredSeen.get();
    }
    return false;
  }

  /**
   * Waits, polling up to {@code maxSpins} times (u64), until every slot this tenant published has
   * drained: the first 64 polls spin, later ones park 2 µs doubling to 50 µs. Zero polls always
   * time out, as in vyre.
   *
   * @throws TenantException {@code QuiesceTimeout} with the slots still outstanding
   */
  public void quiesce(long maxSpins) {
    long started = System.nanoTime();
    IdleStrategy wait = quiesceWait();
    for (long poll = 0; Long.compareUnsigned(poll, maxSpins) < 0; poll++) {
      takeRingDrains();
      if (Long.compareUnsigned(drained.get(), published.get()) >= 0) {
        recordQuiesce(started, false);
        return;
      }
      wait.idle();
    }
    long drainedNow = drained.get();
    long outstanding = outstanding(published.get(), drainedNow);
    recordQuiesce(started, true);
    throw TenantException.quiesceTimeout(id, outstanding);
  }

  /**
   * vyre's quiesce backoff: how long poll {@code poll} parks once the spinning polls are over. The
   * wait of {@link #quiesce} ({@link #quiesceWait}) parks so; TenantTest checks that it does.
   */
  static long quiesceBackoffNanos(long poll) {
    long parkedPoll = Unsigned.saturatingSubU64(poll, QUIESCE_SPIN_POLLS);
    int shift = Long.compareUnsigned(parkedPoll, QUIESCE_BACKOFF_SHIFT_CAP) < 0 ? (int) parkedPoll : QUIESCE_BACKOFF_SHIFT_CAP;
    return Math.min(QUIESCE_MIN_PARK_NANOS << shift, QUIESCE_MAX_PARK_NANOS);
  }

  /** One quiesce's wait between polls: spins, then parks 2 µs doubling to 50 µs (no yields). */
  static IdleStrategy.Backoff quiesceWait() {
    return IdleStrategy.backoff((int) QUIESCE_SPIN_POLLS, 0, QUIESCE_MIN_PARK_NANOS, QUIESCE_MAX_PARK_NANOS);
  }

  private void recordQuiesce(long started, boolean timedOut) {
    AtomicAccounting.saturatingAdd(quiesceCalls, 1);
    if (timedOut) {
      AtomicAccounting.saturatingAdd(quiesceTimeouts, 1);
    }
    long elapsed = Math.max(0, System.nanoTime() - started);
    AtomicAccounting.saturatingAdd(quiesceWaitNs, elapsed);
  }

  // ---------------------------------------------------------------- resource quotas

  /**
   * Allocates a zeroed resource in this tenant's kernel against its quotas: a HOST_MAPPED one (host
   * memory that stages data for the kernel) reserves its bytes as staging bytes, a DEVICE one a
   * resident handle. Nothing is allocated when a quota refuses. Resources live until the kernel shuts
   * down, so the reservation does too.
   *
   * @throws TenantException {@code Unbound}, {@code Revoked}, {@code StagingBackpressure} or
   *     {@code ResidentHandleBackpressure}
   */
  public int allocateResource(long byteSize, ResourcePlacement placement) {
    requireRing();
    if (byteSize < 0) {
      throw PipelineException.invalidArgument("resource", "resource size " + byteSize + " is negative", "pass a size of at least 0 bytes");
    }
    boolean staging = placement == ResourcePlacement.HOST_MAPPED;
    if (staging) {
      reserveStagingBytes(byteSize);
    } else {
      reserveResidentHandles(1);
    }
    try {
      return ring.allocateResource(byteSize, placement);
    } catch (RuntimeException e) {
      // Saturating: a revoke may have dropped the reservations meanwhile.
      AtomicAccounting.saturatingSub(staging ? stagingBytes : residentHandles, staging ? byteSize : 1);
      throw e;
    }
  }

  /** Reserves {@code byteCount} staging bytes (u64); {@code StagingBackpressure} past the cap. */
  public void reserveStagingBytes(long byteCount) {
    reserve(stagingBytes, byteCount, maxStagingBytes, "staging_bytes", TenantException::stagingBackpressure);
  }

  /** Releases staging bytes; {@code ResourceUnderflow} when more than are reserved. */
  public void releaseStagingBytes(long byteCount) {
    release(stagingBytes, byteCount, "staging bytes");
  }

  /** Reserves {@code handleCount} resident handles (u64); {@code ResidentHandleBackpressure} past the cap. */
  public void reserveResidentHandles(long handleCount) {
    reserve(residentHandles, handleCount, maxResidentHandles, "resident_handles", TenantException::residentHandleBackpressure);
  }

  /** Releases resident handles; {@code ResourceUnderflow} when more than are reserved. */
  public void releaseResidentHandles(long handleCount) {
    release(residentHandles, handleCount, "resident handles");
  }

  /** How a quota refuses a reservation: (tenant id, requested, used, cap) → its backpressure error. */
  private interface Backpressure {
    TenantException refuse(int tenantId, long requested, long used, long cap);
  }

  private void reserve(AtomicLong counter, long count, long cap, String counterName, Backpressure backpressure) {
    ensureNotRevoked();
    AtomicAccounting.checkedAdd(counter, count,
        (used, requested) -> TenantException.counterOverflow(id, counterName, "release reservations or recreate the tenant before reserving more"),
        next -> {
          if (Long.compareUnsigned(next, cap) > 0) {
            throw refused(backpressure.refuse(id, count, next - count, cap));
          }
        });
  }

  private void release(AtomicLong counter, long count, String resource) {
    AtomicAccounting.checkedSub(counter, count, (used, requested) -> TenantException.resourceUnderflow(id, resource, requested, used));
  }

  // ---------------------------------------------------------------- counters and lifecycle

  /** Slots ever published (u64). */
  public long publishedCount() {
    return published.get();
  }

  /** Slots counted drained (u64), the kernel's finished tasks taken in first. */
  public long drainedCount() {
    takeRingDrains();
    return drained.get();
  }

  public long maxOutstandingSlots() {
    return maxOutstandingSlots;
  }

  /** Publishes, allocations and reservations a quota of this tenant refused (u64): back-pressure and batches over the cap. */
  public long quotaRefusals() {
    return quotaRefusals.get();
  }

  public TenantRuntimeCounters runtimeCounters() {
    takeRingDrains();
    long drainedCount = drained.get();
    long publishedCount = published.get();
    return new TenantRuntimeCounters(id, publishedCount, drainedCount, Unsigned.saturatingSubU64(publishedCount, drainedCount),
        maxOutstandingSlots, quiesceCalls.get(), quiesceTimeouts.get(), quiesceWaitNs.get());
  }

  public TenantQuotaCounters quotaCounters() {
    return new TenantQuotaCounters(id, stagingBytes.get(), maxStagingBytes, residentHandles.get(), maxResidentHandles);
  }

  /** Unregistration: later publishes and reservations fail; slots already in the ring still run. */
  void revoke() {
    revoked = true;
    stagingBytes.set(0);
    residentHandles.set(0);
  }

  private void ensureNotRevoked() {
    if (revoked) {
      throw TenantException.revoked(id);
    }
  }

  @Override
  public String toString() {
    return "Tenant[id=" + id + ", label=" + label + ", baseOpcode=0x" + Integer.toHexString(baseOpcode) + ", published="
        + Long.toUnsignedString(published.get()) + ", drained=" + Long.toUnsignedString(drained.get()) + ", maxOutstandingSlots="
        + Long.toUnsignedString(maxOutstandingSlots) + ", revoked=" + revoked + "]";
  }
}
