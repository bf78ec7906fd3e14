package dev.vyre.runtime;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.ring.KernelViews;
import dev.vyre.runtime.ring.RetireStep;
import dev.vyre.runtime.ring.RingPartition;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.MegakernelBackend;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.DebugLogLayout;
import dev.vyre.runtime.wire.SlotLayout;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A persistent megakernel on one backend, fed while it runs. Launched once at bootstrap; from then
 * on the host only writes slots and doorbells. Thread-safe for any number of publisher threads.
 *
 * <p>The ring is split into one partition per priority level (control words 129..134). Publishers
 * take consecutive tickets in a partition, write the slots, and commit them in ticket order by
 * advancing that partition's doorbell (control words 141..145), so the kernel polls five words
 * rather than every slot. A retire thread walks each partition in ticket order, completes futures,
 * and frees slots for reuse; it also runs the watchdog.
 *
 * <p>Where things happen, one file per step of a task's life ({@code ring} is the package
 * {@code dev.vyre.runtime.ring}, which the module does not export):
 * <ul>
 *   <li><b>published</b> in {@link RingPublishing}; the doorbell moves in {@code ring.RingPartition};
 *   <li><b>claimed</b> by the backend: {@code ReferenceWorker.claim} (vyre-reference), {@code
 *       vyre_claim} in vyre-cuda's {@code megakernel/claims.cu};
 *   <li><b>executed</b> by the backend: {@code ReferenceInterpreter.execute}, {@code
 *       vyre_execute_slot} in {@code megakernel/interpreter.cu};
 *   <li><b>retired</b> in {@code ring.RetireStep}, run by {@link RetireThread}, by waiters ({@link
 *       TaskAwaiter}) and by publishers waiting for room.
 * </ul>
 * Around them: {@code ring.KernelViews} holds the host's views of the kernel's memory, {@link
 * KernelLifecycle} whether the kernel is open, closed or failed, {@link KernelShutdown} the
 * shutdown sequence, {@link KernelInspection} counters and snapshots, {@link KernelResources}
 * resources and services, {@link KernelTenants} tenants, and {@link IdleStrategy} how every thread
 * here waits. This class delegates to them; its lock (this object) guards services and shutdown.
 */
public final class Megakernel implements AutoCloseable {

  private final String backendName;
  private final String backendReason;
  private final KernelSession session;
  private final int slotCount;
  private int activeWorkerGroups;
  private final int tenantCount;
  /** Each priority level's partition of the ring. */
  private final RingPartition[] partitions = new RingPartition[ControlLayout.PRIORITY_LEVELS];
  private final KernelLifecycle lifecycle;
  private final RingPublishing publishing;
  private final TaskAwaiter awaiter;
  private final KernelInspection inspection;
  private final KernelResources resources;
  private final KernelTenants tenants;
  private final KernelShutdown shutdown;

  Megakernel(MegakernelBuilder builder) {
    if (builder.slots < 1 || builder.slots > SlotLayout.MAX_ENCODED_RING_SLOTS) {
      throw PipelineException.invalidArgument("submission", "slot count " + builder.slots + " is outside 1.." + SlotLayout.MAX_ENCODED_RING_SLOTS,
          "bootstrap with between 1 and 1048576 slots");
    }
    if (builder.tenants < 1 || builder.tenants > ControlLayout.MAX_TENANTS) {
      throw PipelineException.invalidArgument("tenant", "tenant count " + builder.tenants + " is outside 1..29",
          "authorize between 1 and 29 tenants (ids 0..28; docs/DESIGN.md, 'Tenant ids')");
    }
    if (builder.observables < 0 || builder.observables > ControlLayout.MAX_ENCODED_OBSERVABLE_SLOTS) {
      throw PipelineException.invalidArgument("submission", "observable count " + builder.observables + " is outside 0.."
          + ControlLayout.MAX_ENCODED_OBSERVABLE_SLOTS, "bootstrap with between 0 and 1048576 observables");
    }
    MegakernelBackend backend = builder.backend;
    this.backendName = backend.name();
    this.backendReason = builder.backendReason;
    this.slotCount = builder.slots;
    this.tenantCount = builder.tenants;
    int[] offsets = RingPartition.offsets(builder.priorityOffsets, builder.slots);
    this.session = backend.open(new KernelSpec(builder.slots, offsets, builder.tenants, builder.observables,
        builder.userOpcodes, builder.workers, builder.device));
    try {
      this.activeWorkerGroups = session.workerGroups();
      KernelViews views = KernelViews.bootstrap(session.memory(), builder.tenants, offsets);
      for (int p = 0; p < partitions.length; p++) {
        partitions[p] = new RingPartition(p, offsets[p], offsets[p + 1] - offsets[p]);
      }
      RetireStep retire = new RetireStep(partitions, builder.slots, views);
      this.lifecycle = new KernelLifecycle(backendName, session, partitions, retire, views, builder.stallTimeout.toNanos());
      this.inspection = new KernelInspection(session, lifecycle, views, partitions, retire);
      session.launch();
      RetireThread retireThread = new RetireThread(lifecycle, inspection, views, retire, builder.stallTimeout.toNanos());
      this.publishing = new RingPublishing(lifecycle, views, partitions, retire, session::wake, retireThread, builder.publishTimeout.toNanos());
      this.awaiter = new TaskAwaiter(lifecycle, views, partitions, retire, retireThread);
      this.resources = new KernelResources(session, lifecycle);
      this.tenants = new KernelTenants(views, publishing, retire, resources, inspection, builder.tenants);
      this.shutdown = new KernelShutdown(this, lifecycle, views, session, partitions, retire, retireThread, resources);
      retireThread.start();
    } catch (RuntimeException | Error e) {
      // Nobody else can close it: stop the kernel if it started, and free its memory.
      try {
        session.close();
      } catch (RuntimeException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      throw e;
    }
  }

  public static MegakernelBuilder builder() {
    return new MegakernelBuilder();
  }

  // ---------------------------------------------------------------- publishing (RingPublishing)

  /**
   * Publishes one task and returns its ticket; waits for ring space up to the publish timeout. Once
   * shutdown (or a failure) has begun, fails with {@link KernelException} ({@code Closed} or the failure).
   */
  public long publish(Task task) {
    return publish(task.tenant(), task.priority(), task.opcode(), task.argsUnsafe());
  }

  /**
   * Publishes one task. The call allocates its varargs array; with at most three arguments the
   * overloads below take them as values and allocate nothing.
   */
  public long publish(int tenant, Priority priority, int opcode, int... args) {
    return publishing.publish(tenant, priority, opcode, args, 0, 0, 0, null, false);
  }

  /**
   * Publishes one task without arguments; allocation-free. (A varargs call allocates an array per
   * call, 16 bytes for none, so a fresh page of heap every 256 round trips, and a round trip pays
   * for the page fault on its first touch; docs/BENCHMARKS.md.)
   */
  public long publish(int tenant, Priority priority, int opcode) {
    return publishing.publish(tenant, priority, opcode, null, 0, 0, 0, null, false);
  }

  /** Publishes one task with one argument; allocation-free. */
  public long publish(int tenant, Priority priority, int opcode, int arg0) {
    return publishing.publish(tenant, priority, opcode, null, arg0, 0, 0, null, false);
  }

  /** Publishes one task with two arguments; allocation-free. */
  public long publish(int tenant, Priority priority, int opcode, int arg0, int arg1) {
    return publishing.publish(tenant, priority, opcode, null, arg0, arg1, 0, null, false);
  }

  /** Publishes one task with three arguments; allocation-free. */
  public long publish(int tenant, Priority priority, int opcode, int arg0, int arg1, int arg2) {
    return publishing.publish(tenant, priority, opcode, null, arg0, arg1, arg2, null, false);
  }

  /** Publishes one task and returns a future that completes with how it ended. */
  public CompletableFuture<TaskResult> submit(Task task) {
    CompletableFuture<TaskResult> future = new CompletableFuture<>();
    publishing.publish(task.tenant(), task.priority(), task.opcode(), task.argsUnsafe(), 0, 0, 0, future, false);
    return future;
  }

  /**
   * Publishes a whole batch into consecutive slots of its priority's partition with one doorbell
   * update; returns the ticket of the first task (the others follow consecutively), or -1 for an
   * empty batch, which {@link #await} takes as finished. Every task was validated when it was added
   * to the batch, so a batch is published whole or not at all.
   */
  public long publish(TaskBatch batch) {
    return publishing.publish(batch, false);
  }

  /**
   * The ticket of task {@code index} of a batch whose first ticket {@link #publish(TaskBatch)}
   * returned. Tickets of one priority finish in order, so awaiting a batch's last ticket awaits it all.
   */
  public static long batchTicket(long firstTicket, int index) {
    return firstTicket + ((long) index << RingPartition.TICKET_LEVEL_BITS);
  }

  /** The ring slot the task with {@code ticket} was published into (its {@link TaskResult#slot}). */
  public int slotOf(long ticket) {
    return partitions[RingPartition.levelOf(ticket)].slotOf(RingPartition.sequenceOf(ticket));
  }

  // ---------------------------------------------------------------- waiting (TaskAwaiter)

  /**
   * Waits until the task with {@code ticket}, and every task of its priority published before it,
   * has finished; false on timeout or if the kernel exited first (a SHUTDOWN opcode, or shutdown);
   * throws the {@link KernelException} that failed the kernel. Its retirement (its slot freed, its
   * outcome counted in {@link #stats}) may follow at the next retire pass: a waiter leaves it to the
   * next {@code await}, which runs that pass while the kernel works, so no round trip waits for it.
   */
  public boolean await(long ticket, Duration timeout) {
    return awaiter.await(ticket, timeout);
  }

  /**
   * Waits until everything published so far has finished; false on timeout or if the kernel
   * exited first; throws the {@link KernelException} that failed the kernel.
   */
  public boolean drain(Duration timeout) {
    return awaiter.drain(timeout);
  }

  /**
   * True until the kernel has exited (SHUTDOWN, abort or failure), and false once {@link #shutdown}
   * has returned, even when a worker stuck in a handler outlived the abort.
   */
  public boolean isKernelRunning() {
    return lifecycle.isKernelRunning();
  }

  // ---------------------------------------------------------------- inspection (KernelInspection)

  /**
   * The kernel's DONE_COUNT (u32, exact as of now). Each of these reads takes a whole {@link
   * #controlSnapshot()}, which on CUDA is a device-to-host copy (the kernel's counters live in device
   * memory): microseconds, not a memory read. To read several words, or to poll, take one snapshot
   * and read it with {@code ControlLayout}.
   */
  public long doneCount() {
    return inspection.doneCount();
  }

  /** The kernel's EPOCH (u32, exact as of now): BATCH_FENCE tasks finished. */
  public long epoch() {
    return inspection.epoch();
  }

  /** Observable word {@code index} (u32, exact as of now). */
  public long observable(int index) {
    return inspection.observable(index);
  }

  /** An exact copy of the control block as it is now (for telemetry); after shutdown, the final one. */
  public byte[] controlSnapshot() {
    return inspection.controlSnapshot();
  }

  /** A copy of the ring as it is now (for telemetry); after shutdown, as shutdown left it. */
  public byte[] ringSnapshot() {
    return inspection.ringSnapshot();
  }

  /**
   * {@link #ringSnapshot()} into {@code target}, whose first {@code slotCount() * SlotLayout.SLOT_BYTES} bytes it
   * writes: a sampler that looks often reuses one buffer instead of a new array each time.
   */
  public void ringSnapshot(MemorySegment target) {
    inspection.ringSnapshot(target);
  }

  /** A copy of the PRINTF debug log, in its wire layout ({@link DebugLogLayout}). */
  public byte[] debugLogSnapshot() {
    return inspection.debugLogSnapshot();
  }

  /**
   * The PRINTF records the kernel has logged, and how many found the log full: it keeps the first
   * {@value DebugLogLayout#RECORD_CAPACITY} until {@link #clearDebugLog()} empties it.
   */
  public DebugLogLayout.Contents debugLog() {
    return inspection.debugLog();
  }

  /**
   * Takes the log's records and empties it, so that the next batch's PRINTFs are kept. Only
   * between batches: every task published so far must have finished, and no other thread may
   * publish meanwhile (a PRINTF that runs during the clear may lose its record).
   *
   * @throws PipelineException when a task is still in flight
   */
  public DebugLogLayout.Contents clearDebugLog() {
    return inspection.clearDebugLog();
  }

  /** Device-side timings of tasks where the backend was built to trace them, else empty; see KernelSession. */
  public Map<String, Double> deviceTrace(boolean reset) {
    return inspection.deviceTrace(reset);
  }

  /**
   * Counters of the host side: tasks published, retired, and how they ended; {@code verifiedAhead}
   * of the DONE ones were counted unread, in chunks verified ahead of the retire step (by
   * publishers waiting for room, see RetireStep); {@code quotaRefusals}: publishes and resource
   * allocations a registered tenant's quota refused (the kernel's own refusals of reads are control
   * word {@code ControlLayout.TENANT_QUOTA_REFUSALS}; docs/PROTOCOL.md, "Tenant quotas").
   */
  public record Stats(long published, long retired, long done, long faults, long waitIo, long verifiedAhead, long quotaRefusals) {}

  public Stats stats() {
    return inspection.stats();
  }

  /**
   * How long publishers of this kernel have waited for ring room since it started, because every
   * slot was in flight: in all ({@code waitNanos}, which includes the retiring and verifying ahead
   * that a waiting publisher does meanwhile) and of that idle ({@code idleNanos}). A job whose
   * publishing is mostly this wait is bound by the kernel, not by the host's publishing.
   */
  public record RoomWait(long waitNanos, long idleNanos) {

    /** None yet. */
    public static final RoomWait NONE = new RoomWait(0, 0);

    /** This wait less {@code before}'s: what was waited in between. */
    public RoomWait since(RoomWait before) {
      return new RoomWait(waitNanos - before.waitNanos, idleNanos - before.idleNanos);
    }

    /** This wait and {@code other}'s together (two kernels' publishers). */
    public RoomWait plus(RoomWait other) {
      return new RoomWait(waitNanos + other.waitNanos, idleNanos + other.idleNanos);
    }
  }

  /** See {@link RoomWait}. */
  public RoomWait roomWait() {
    return publishing.roomWait();
  }

  /** A one-line control-block summary for errors and logs. */
  public String summary() {
    return inspection.summary();
  }

  public String backendName() {
    return backendName;
  }

  /** Why this backend was chosen (for {@code --verbose}). */
  public String backendReason() {
    return backendReason;
  }

  public String describe() {
    return session.describe();
  }

  /** The ordinal of the device the kernel runs on ({@link MegakernelBuilder#device}, else the backend's default). */
  public int device() {
    return session.device();
  }

  public int slotCount() {
    return slotCount;
  }

  /** The worker groups the kernel runs: CUDA blocks, reference worker threads. */
  public int workerGroups() {
    return session.workerGroups();
  }

  /** Whether starting this kernel compiled its code (a GPU backend's pipeline-cache miss). */
  public boolean compiledAtStart() {
    return session.compiledAtStart();
  }

  /** Lanes (threads) in each worker group: 256 on CUDA, one on the reference backend. */
  public int lanesPerWorkerGroup() {
    return session.lanesPerWorkerGroup();
  }

  /** The worker groups that claim new work now (all of them unless {@link #setActiveWorkerGroups} said otherwise). */
  public int activeWorkerGroups() {
    return activeWorkerGroups;
  }

  /**
   * Lets only the first {@code active} worker groups claim new work; the rest idle. A live kernel
   * takes this without a relaunch: the launch policy's way to shed and wake workers (docs/POLICY.md).
   *
   * @throws InputException when {@code active} is not in 1..{@link #workerGroups()}
   */
  public synchronized void setActiveWorkerGroups(int active) {
    int groups = session.workerGroups();
    if (active < 1 || active > groups) {
      throw InputException.of("active worker groups", active + " is outside 1.." + groups,
          "keep at least one and at most the " + groups + " groups the kernel runs");
    }
    if (active != activeWorkerGroups) {
      lifecycle.checkOpen();
      session.setActiveWorkerGroups(active);
      activeWorkerGroups = active;
    }
  }

  public int tenantCount() {
    return tenantCount;
  }

  /** Slots of {@code priority}'s partition: the largest batch that level takes. */
  public int partitionSlots(Priority priority) {
    return partitions[priority.level()].length;
  }

  /** The failure that stopped the kernel, if any. */
  public KernelException failure() {
    return lifecycle.failure();
  }

  /** What work on a stopped kernel fails with: the failure that stopped it, or {@code Closed}. */
  public KernelException closedError() {
    return lifecycle.closedError();
  }

  // ---------------------------------------------------------------- tenants (KernelTenants)

  /** Authorizes or revokes a tenant at run time by writing its mask word. */
  public void setTenantAuthorized(int tenant, boolean authorized) {
    tenants.setAuthorized(tenant, authorized);
  }

  /** Whether the control block authorizes {@code tenant} now (its mask word is non-zero); false outside 0..28. */
  public boolean isTenantAuthorized(int tenant) {
    return tenants.isAuthorized(tenant);
  }

  /**
   * The ring tenants publish into: publishes counted per tenant, so the retire step tells each
   * tenant how many of its tasks have drained. {@code TenantRegistry.of(kernel)} registers tenants on it.
   */
  public TenantRing tenantRing() {
    return tenants.ring();
  }

  // ---------------------------------------------------------------- resources (KernelResources)

  /** Allocates a zeroed, kernel-visible resource buffer and returns the handle slot arguments use. */
  public int allocateResource(long byteSize, ResourcePlacement placement) {
    return resources.allocate(byteSize, placement);
  }

  /**
   * The host view of a resource (null for a DEVICE resource on a GPU backend; use read/write). It
   * is freed by shutdown, like every resource.
   */
  public MemorySegment resource(int handle) {
    return resources.view(handle);
  }

  /** Copies bytes into a resource; complete when this returns. */
  public void writeResource(int handle, long offset, MemorySegment source) {
    resources.write(handle, offset, source);
  }

  /** Copies bytes out of a resource into {@code target}. */
  public void readResource(int handle, long offset, MemorySegment target) {
    resources.read(handle, offset, target);
  }

  /**
   * Starts copying the first {@code bytes} of a HOST_MAPPED resource into another resource (on a
   * GPU, by its copy engine beside the running kernel); see {@link #copyFinished}. Publish tasks
   * that read the copy only after it finished; keep the source unchanged until then.
   */
  public long startCopy(int from, int to, long bytes) {
    return resources.startCopy(from, to, bytes);
  }

  /** Whether the copy numbered {@code copy} by {@link #startCopy} has finished. */
  public boolean copyFinished(long copy) {
    return resources.copyFinished(copy);
  }

  /**
   * Promotes DFA table {@code tableHandle} to its compact form {@code compact} (built by {@link
   * dev.vyre.runtime.dfa.PromotedDfaLayout#compact} from the table's bytes): the kernel's DFA_STEP
   * tasks that name the table scan with it from the next task on, with the same results. A write into
   * the table's resource ({@link #writeResource}, {@link #startCopy}) demotes it first; a write
   * through a host view ({@link #resource}) does not, so demote before writing that way
   * (docs/POLICY.md, "Promotion").
   *
   * @throws dev.vyre.driver.error.NotImplementedException on a backend without a promoted DFA_STEP
   * @throws dev.vyre.driver.error.ProtocolException when the table or {@code compact} is malformed
   * @throws dev.vyre.driver.error.PipelineException (busy) when the table was written while its promotion
   *     was checked (the check reads it back while other writes go on): promote it again later
   */
  public void promoteDfaTable(int tableHandle, MemorySegment compact) {
    resources.promoteDfaTable(tableHandle, compact);
  }

  /** Ends the promotion of {@code tableHandle}; DFA_STEP reads its resource again. Nothing happens for a table not promoted. */
  public void demoteDfaTable(int tableHandle) {
    resources.demoteDfaTable(tableHandle);
  }

  /** Whether hot DFA tables are worth promoting on this kernel's backend ({@link KernelSession#promotedDfaIsFaster}). */
  public boolean promotedDfaIsFaster() {
    return session.promotedDfaIsFaster();
  }

  /** DFA_STEP tasks this kernel scanned with a promoted table so far (the backend counts them). */
  public long promotedTasks() {
    return session.promotedTasks();
  }

  /** Whether {@code tableHandle} is promoted now. */
  public boolean isDfaTablePromoted(int tableHandle) {
    return resources.isDfaTablePromoted(tableHandle);
  }

  /**
   * The service of type {@code type} bound to this kernel (the IO request pump is one), made from the
   * backend session by {@code factory} on the first call and closed by {@link #shutdown} once the
   * kernel has exited. Modules above the ring core attach themselves this way, so the core needs none
   * of them.
   */
  public synchronized <T> T service(Class<T> type, Function<KernelSession, ? extends T> factory) {
    return resources.service(type, factory);
  }

  // ---------------------------------------------------------------- shutdown (KernelShutdown)

  /**
   * Stops the kernel: sets SHUTDOWN, waits for it to exit (aborting it after {@code timeout}),
   * retires what finished, and reports every slot still in flight. Idempotent, and callable from a
   * future's callback (which runs inside a retire pass).
   */
  public ShutdownReport shutdown(Duration timeout) {
    return shutdown.shutdown(timeout);
  }

  /** Shuts down with a 10-second grace period; see {@link #shutdown(Duration)}. */
  @Override
  public void close() {
    shutdown(Duration.ofSeconds(10));
  }

  /**
   * Closes {@code kernels} at once, each on its own thread, and returns when all are closed; the
   * first failure is thrown with the others suppressed. Each close drains its kernel with a grace
   * period, so closing several at once takes the longest of them rather than their sum.
   */
  public static void closeAll(List<Megakernel> kernels) {
    List<RuntimeException> failures = Collections.synchronizedList(new ArrayList<>());
    Thread[] closing = new Thread[kernels.size()];
    for (int k = 0; k < closing.length; k++) {
      Megakernel kernel = kernels.get(k);
      closing[k] = Thread.ofPlatform().name("vyre-close-" + k).start(() -> {
        try {
          kernel.close();
        } catch (RuntimeException e) {
          failures.add(e);
        }
      });
    }
    ThreadEnds.await(closing);
    if (!failures.isEmpty()) {
      RuntimeException first = failures.getFirst();
      failures.stream().skip(1).forEach(first::addSuppressed);
      throw first;
    }
  }
}
