package dev.vyre.runtime;

import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.spi.KernelMemory;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.MegakernelBackend;
import dev.vyre.runtime.tenant.TenantRegistry;
import dev.vyre.runtime.tenant.TenantRing;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.DebugLogLayout;
import dev.vyre.runtime.wire.ExpressLayout;
import dev.vyre.runtime.wire.RingPublisher;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
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
 */
public final class Megakernel implements AutoCloseable {

  private static final long SPIN_WAIT_NANOS = 200_000;
  private static final VarHandle FAILURE;

  static {
    try {
      FAILURE = MethodHandles.lookup().findVarHandle(Megakernel.class, "failure", KernelException.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final MegakernelBackend backend;
  private final String backendReason;
  private final KernelSession session;
  /** Made by {@link #service}, closed by {@link #shutdown} in the order made; guarded by this. */
  private final Map<Class<?>, AutoCloseable> services = new LinkedHashMap<>();
  // Replaced by heap copies at shutdown, before the session is closed. A thread that picked up the
  // session's view just before the swap may use it after the close: the session ended the view
  // first, so that access throws IllegalStateException (see closedByRace) instead of reading freed memory.
  private volatile MemorySegment control;
  private volatile MemorySegment ring;
  /** The express lane (empty when the backend reads none); see {@link ExpressLayout}. */
  private volatile MemorySegment express;
  private final RetireStep retire;
  private final RingPartition[] partitions = new RingPartition[ControlLayout.PRIORITY_LEVELS];
  private final int slotCount;
  private final int tenantCount;
  private final long publishTimeoutNanos;
  private final long stallTimeoutNanos;
  private final RetireThread retireThread;
  private volatile boolean closed;
  private volatile KernelException failure;
  private volatile ShutdownReport report;
  private volatile TenantRegistry tenantRegistry;

  Megakernel(MegakernelBuilder builder) {
    if (builder.slots < 1 || builder.slots > SlotLayout.MAX_ENCODED_RING_SLOTS) {
      throw PipelineException.queueFull("submission", "slot count " + builder.slots + " is outside 1.." + SlotLayout.MAX_ENCODED_RING_SLOTS,
          "bootstrap with between 1 and 1048576 slots");
    }
    if (builder.tenants < 1 || builder.tenants > ControlLayout.MAX_TENANTS) {
      throw PipelineException.queueFull("tenant", "tenant count " + builder.tenants + " is outside 1..29",
          "authorize between 1 and 29 tenants (ids 0..28; DECISIONS.md §3.4)");
    }
    if (builder.observables < 0 || builder.observables > ControlLayout.MAX_ENCODED_OBSERVABLE_SLOTS) {
      throw PipelineException.queueFull("submission", "observable count " + builder.observables + " is outside 0.."
          + ControlLayout.MAX_ENCODED_OBSERVABLE_SLOTS, "bootstrap with between 0 and 1048576 observables");
    }
    this.backend = builder.backend;
    this.backendReason = builder.backendReason;
    this.slotCount = builder.slots;
    this.tenantCount = builder.tenants;
    this.publishTimeoutNanos = builder.publishTimeout.toNanos();
    this.stallTimeoutNanos = builder.stallTimeout.toNanos();
    int[] offsets = RingPartition.offsets(builder.priorityOffsets, builder.slots);
    this.session = backend.open(new KernelSpec(builder.slots, offsets, builder.tenants, builder.observables,
        builder.userOpcodes, builder.workers));
    try {
      KernelMemory memory = session.memory();
      this.control = memory.control();
      this.ring = memory.ring();
      this.express = memory.express();
      express.fill((byte) 0);
      ControlLayout.encodeInto(control, false, builder.tenants);
      ControlLayout.writePriorityOffsets(control, offsets);
      ring.fill((byte) 0);
      for (int p = 0; p < partitions.length; p++) {
        partitions[p] = new RingPartition(p, offsets[p], offsets[p + 1] - offsets[p]);
      }
      this.retire = new RetireStep(partitions, builder.slots, control, ring, express);
      session.launch();
      this.retireThread = new RetireThread(this, retire, stallTimeoutNanos);
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

  // ---------------------------------------------------------------- publishing

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
    return publishOne(tenant, priority, opcode, args, 0, 0, 0, null, false);
  }

  /**
   * Publishes one task without arguments; allocation-free. (A varargs call allocates an array per
   * call: 16 bytes for none, so a fresh 4 KiB page of heap every 256 round trips, and the page
   * fault on its first touch cost 2-3 µs of those round trips on the H100 host, docs/BENCHMARKS.md.)
   */
  public long publish(int tenant, Priority priority, int opcode) {
    return publishOne(tenant, priority, opcode, null, 0, 0, 0, null, false);
  }

  /** Publishes one task with one argument; allocation-free. */
  public long publish(int tenant, Priority priority, int opcode, int arg0) {
    return publishOne(tenant, priority, opcode, null, arg0, 0, 0, null, false);
  }

  /** Publishes one task with two arguments; allocation-free. */
  public long publish(int tenant, Priority priority, int opcode, int arg0, int arg1) {
    return publishOne(tenant, priority, opcode, null, arg0, arg1, 0, null, false);
  }

  /** Publishes one task with three arguments; allocation-free. */
  public long publish(int tenant, Priority priority, int opcode, int arg0, int arg1, int arg2) {
    return publishOne(tenant, priority, opcode, null, arg0, arg1, arg2, null, false);
  }

  /** Publishes one task and returns a future that completes with how it ended. */
  public CompletableFuture<TaskResult> submit(Task task) {
    CompletableFuture<TaskResult> future = new CompletableFuture<>();
    publishOne(task.tenant(), task.priority(), task.opcode(), task.argsUnsafe(), 0, 0, 0, future, false);
    return future;
  }

  /**
   * The arguments are {@code args}, or when it is null {@code arg0..arg2} (the rest 0).
   * {@code countTenant}: the retire step counts the task against its tenant (see {@link #tenantRegistry}).
   */
  private long publishOne(int tenant, Priority priority, int opcode, int[] args, int arg0, int arg1, int arg2,
      CompletableFuture<TaskResult> future, boolean countTenant) {
    checkTask(tenant, opcode, args == null ? 3 : args.length);
    RingPartition part = partition(priority);
    try {
      long ticket = reserve(part, 1);
      int slot = part.slotOf(ticket);
      if (future != null) {
        retire.expectFuture(slot, future);
      }
      if (countTenant) {
        retire.expectTenantCount(slot);
      }
      if (args == null) {
        RingPublisher.writeSlot(ring, slot, tenant, part.level, opcode, arg0, arg1, arg2);
      } else {
        RingPublisher.writeSlot(ring, slot, tenant, part.level, opcode, args, 0, args.length);
      }
      expressCopy(slot, ticket);
      // Only a future needs the retire thread: a plain publish is retired by whoever awaits, drains
      // or waits for room. Waking a parked thread is a system call, and on a virtual machine an
      // interrupt to another vCPU (26 us per publish for the reference worker on the H100 host).
      commit(part, ticket, 1, future != null);
      return part.ticketOf(ticket);
    } catch (IllegalStateException e) {
      throw closedByRace(e);
    }
  }

  /**
   * Publishes a whole batch into consecutive slots of its priority's partition with one doorbell
   * update; returns the ticket of the first task (the others follow consecutively), or -1 for an
   * empty batch, which {@link #await} takes as finished. Every task was validated when it was added
   * to the batch, so a batch is published whole or not at all.
   */
  public long publish(TaskBatch batch) {
    return publishBatch(batch, false);
  }

  /** {@code countTenant}: the retire step counts each task against its tenant (see {@link #tenantRegistry}). */
  private long publishBatch(TaskBatch batch, boolean countTenant) {
    int n = batch.size();
    if (n == 0) {
      return -1;
    }
    checkOpen();
    RingPartition part = partition(batch.priority());
    if (n > part.length) {
      throw PipelineException.queueFull("submission", "batch of " + n + " exceeds the " + batch.priority() + " partition of " + part.length + " slots",
          "publish smaller batches or bootstrap with more slots");
    }
    try {
      long first = reserve(part, n);
      int[] words = batch.slotWords();
      // The tasks were checked as they were added; they land in at most two runs of contiguous slots
      // (the partition wraps), copied in bulk. The kernel reads none of them before the doorbell.
      int slot = part.slotOf(first);
      int head = Math.min(n, part.start + part.length - slot);
      copySlots(words, 0, slot, head);
      copySlots(words, head, part.start, n - head);
      if (countTenant) {
        for (int i = 0; i < n; i++) {
          retire.expectTenantCount(part.slotOf(first + i));
        }
      }
      expressCopy(slot, first);
      commit(part, first, n, true);
      return part.ticketOf(first);
    } catch (IllegalStateException e) {
      throw closedByRace(e);
    }
  }

  private void copySlots(int[] words, int fromTask, int slot, int count) {
    if (count > 0) {
      Words.copy(words, fromTask * SlotLayout.SLOT_WORDS, ring, SlotLayout.slotBase(slot), count * SlotLayout.SLOT_WORDS);
    }
  }

  /**
   * Copies the first task of a publish, already in ring slot {@code slot}, to the express lane, so
   * that an idle kernel can take it in the read that finds it (a round trip saves a PCIe read). The
   * ring slot goes first: the kernel stores the task's final status there, after this copy.
   */
  private void expressCopy(int slot, long sequence) {
    MemorySegment lane = express;
    if (lane.byteSize() != 0) {
      retire.expectExpressCopy(slot);
      VarHandle.releaseFence();
      ExpressLayout.write(lane, ring, slot, ExpressLayout.stamp(sequence));
    }
  }

  /**
   * The ticket of task {@code index} of a batch whose first ticket {@link #publish(TaskBatch)}
   * returned. Tickets of one priority finish in order, so awaiting a batch's last ticket awaits it all.
   */
  public static long batchTicket(long firstTicket, int index) {
    return firstTicket + ((long) index << RingPartition.TICKET_LEVEL_BITS);
  }

  private void checkTask(int tenant, int opcode, int argCount) {
    checkOpen();
    RingPublisher.checkPayload(tenant, opcode, argCount);
  }

  private void checkOpen() {
    if (closed) {
      throw failure != null ? failure : KernelException.closed(backend.name());
    }
  }

  /**
   * What a call whose access to the kernel's memory threw IllegalStateException fails with. Once
   * shutdown has begun, that is the session having ended a view this thread picked up before
   * shutdown swapped in its heap copies: the kernel is shut down, so the failure or {@code Closed}.
   * Before shutdown it is a bug, returned as it is.
   */
  private RuntimeException closedByRace(IllegalStateException e) {
    if (!closed) {
      return e;
    }
    return failure != null ? failure : KernelException.closed(backend.name());
  }

  private RingPartition partition(Priority priority) {
    RingPartition part = partitions[priority.level()];
    if (part.length == 0) {
      throw PipelineException.queueFull("submission", "the " + priority + " priority partition has no slots",
          "bootstrap with priority offsets that give " + priority + " slots, or publish at another priority");
    }
    return part;
  }

  /** Takes {@code count} consecutive tickets once the ring has room, waiting up to the publish timeout. */
  private long reserve(RingPartition part, int count) {
    long deadline = 0;
    int waits = 0;
    while (true) {
      long sequence = part.tryReserve(count);
      if (sequence >= 0) {
        return sequence;
      }
      checkOpen();
      // The slots come back when their tickets retire; this publisher need not wait for the
      // retire thread to wake (plain publishes do not wake it). While another thread holds the
      // turn, it verifies chunks ahead of that one on its own core (RetireStep.verifyAhead).
      if (retire.retire(false) > 0 || retire.verifyAhead(part)) {
        continue;
      }
      if (!isKernelRunning() && retire.retire(true) == 0) {
        // It exited (a SHUTDOWN opcode, or a fault not reported yet): no slot will come back.
        throw failure == null && healthy() ? KernelException.closed(backend.name()) : failure;
      }
      if (deadline == 0) {
        if (publishTimeoutNanos <= 0) {
          throw queueFull(part);
        }
        deadline = System.nanoTime() + publishTimeoutNanos;
      } else if (System.nanoTime() - deadline > 0) {
        throw queueFull(part);
      }
      Backoff.pause(waits++);
    }
  }

  private PipelineException queueFull(RingPartition part) {
    return PipelineException.queueFull("submission",
        "the " + Priority.ofLevel(part.level) + " partition's " + part.length + " slots are all in flight",
        "wait for completions, raise the publish timeout, or bootstrap with more slots");
  }

  /** Commits tickets in order and wakes the backend, and the retire thread if {@code wakeRetire}. */
  private void commit(RingPartition part, long first, int count, boolean wakeRetire) {
    part.commit(control, first, count);
    session.wake();
    if (wakeRetire) {
      retireThread.wakeIfParked();
    }
  }

  // ---------------------------------------------------------------- waiting and observing

  /**
   * Waits until the task with {@code ticket}, and every task of its priority published before it,
   * has finished; false on timeout or if the kernel exited first (a SHUTDOWN opcode, or shutdown);
   * throws the {@link KernelException} that failed the kernel. Its retirement (its slot freed, its
   * outcome counted in {@link #stats}) may follow at the next retire pass: a waiter leaves it to the
   * next {@code await}, which runs that pass while the kernel works, so no round trip waits for it.
   */
  public boolean await(long ticket, Duration timeout) {
    if (ticket < 0) {
      // An empty batch's "ticket" (-1), or a batchTicket derived from it: nothing was published.
      return true;
    }
    RingPartition part = partitions[RingPartition.levelOf(ticket)];
    long sequence = RingPartition.sequenceOf(ticket);
    if (part.retired.getVolatile() > sequence) {
      return true;
    }
    retireThread.awaitBegun();
    try {
      return awaitRetired(part, sequence, timeout);
    } catch (IllegalStateException e) {
      // Shut down while this waited (see closedByRace): its last retire pass is over, so the
      // ticket has retired or never will.
      RuntimeException error = closedByRace(e);
      if (error == e || failure != null) {
        throw error;
      }
      return part.retired.getVolatile() > sequence;
    } finally {
      retireThread.awaitEnded();
    }
  }

  private boolean awaitRetired(RingPartition part, long sequence, Duration timeout) {
    int slot = part.slotOf(sequence);
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    int spins = 0;
    while (part.retired.getVolatile() <= sequence) {
      if (failure != null) {
        throw failure;
      }
      // Its own status is one load. Once it is final and every earlier ticket is retired, the
      // task is done in order: its retire pass is left to a later one. Otherwise a pass (a CAS and
      // a walk of every partition) right away, which retires what earlier waiters left while the
      // kernel works on this task, and now and then after.
      if (retire.finished(slot)) {
        if (part.retired.getVolatile() == sequence) {
          return true;
        }
        retire.retire(false);
      } else if ((spins++ & 63) == 0) {
        retire.retire(false);
      }
      long now = System.nanoTime();
      if (now - deadline > 0 || (closed && report != null)) {
        return false;
      }
      // A waiter that retires for itself needs no wake-up: spin while a round trip is plausible.
      if (now - start < SPIN_WAIT_NANOS) {
        Thread.onSpinWait();
      } else if (!closed && !isKernelRunning()) {
        // (While shutdown runs, its last pass retires what finished and the report ends the wait.)
        return finishedBeforeExit(part, sequence + 1);
      } else {
        LockSupport.parkNanos(20_000);
      }
    }
    return true;
  }

  /**
   * The kernel exited while a caller waited for {@code part}'s tickets below {@code target}. Throws
   * the failure if it failed (asking the backend first: the retire thread may not have yet);
   * otherwise retires what it finished before it exited and says whether that reaches the target.
   */
  private boolean finishedBeforeExit(RingPartition part, long target) {
    if (failure == null && healthy()) {
      retire.retire(true);
      return part.retired.getVolatile() >= target;
    }
    throw failure;
  }

  /**
   * Waits until everything published so far has finished; false on timeout or if the kernel
   * exited first; throws the {@link KernelException} that failed the kernel.
   */
  public boolean drain(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    int waits = 0;
    for (RingPartition part : partitions) {
      long target = part.taken();
      while (part.retired.getVolatile() < target) {
        if (failure != null) {
          throw failure;
        }
        retire.retire(false);
        if (part.retired.getVolatile() >= target) {
          // This level is done; the later ones still count.
          break;
        }
        if (!isKernelRunning()) {
          if (!finishedBeforeExit(part, target)) {
            return false;
          }
        } else if (System.nanoTime() - deadline > 0) {
          return false;
        } else {
          Backoff.pause(waits++);
        }
      }
    }
    return true;
  }

  /**
   * True until the kernel has exited (SHUTDOWN, abort or failure), and false once {@link #shutdown}
   * has returned, even when a worker stuck in a handler outlived the abort.
   */
  public boolean isKernelRunning() {
    if (failure != null || report != null) {
      return false;
    }
    try {
      return Words.getVolatile(control, ControlLayout.KERNEL_STATE) != ControlLayout.KERNEL_STATE_EXITED;
    } catch (IllegalStateException e) {
      // The view ended under this read (see closedByRace): the kernel is shut down.
      afterSwap(e);
      return false;
    }
  }

  /**
   * The kernel's DONE_COUNT (u32, exact as of now). Each of these reads takes a whole {@link
   * #controlSnapshot()}, which on CUDA is a device-to-host copy (the kernel's counters live in device
   * memory): microseconds, not a memory read. To read several words, or to poll, take one snapshot
   * and read it with {@code ControlLayout}.
   */
  public long doneCount() {
    return ControlLayout.readDoneCount(MemorySegment.ofArray(controlSnapshot()));
  }

  /** The kernel's EPOCH (u32, exact as of now): BATCH_FENCE tasks finished. */
  public long epoch() {
    return ControlLayout.readEpoch(MemorySegment.ofArray(controlSnapshot()));
  }

  /** Observable word {@code index} (u32, exact as of now). */
  public long observable(int index) {
    return ControlLayout.readObservable(MemorySegment.ofArray(controlSnapshot()), index);
  }

  /** Authorizes or revokes a tenant at run time by writing its mask word. */
  public void setTenantAuthorized(int tenant, boolean authorized) {
    ControlLayout.checkTenant(tenant);
    try {
      Words.setRelease(control, ControlLayout.tenantMaskWord(tenant), authorized ? -1 : 0);
    } catch (IllegalStateException e) {
      afterSwap(e);
      Words.setRelease(control, ControlLayout.tenantMaskWord(tenant), authorized ? -1 : 0);
    }
  }

  /** Whether the control block authorizes {@code tenant} now (its mask word is non-zero); false outside 0..28. */
  public boolean isTenantAuthorized(int tenant) {
    if (tenant < 0 || tenant >= ControlLayout.MAX_TENANTS) {
      return false;
    }
    try {
      return Words.getAcquire(control, ControlLayout.tenantMaskWord(tenant)) != 0;
    } catch (IllegalStateException e) {
      afterSwap(e);
      return Words.getAcquire(control, ControlLayout.tenantMaskWord(tenant)) != 0;
    }
  }

  /**
   * For a read or write of the kernel's memory that the session's end of a view cut short (see
   * closedByRace), which the caller then repeats: shutdown swapped in its heap copies before it
   * closed the session, so the repeat uses those. Rethrows anything else.
   */
  void afterSwap(IllegalStateException e) {
    if (closedByRace(e) == e) {
      throw e;
    }
  }

  /**
   * This kernel's tenant registry (vyre-runtime.md §7.3, DECISIONS.md §3.4), created on first use.
   * It hands out the ids this kernel's control block authorizes beside the host's own tenant 0
   * (1 .. tenants-1), and its tenants publish into this ring with their opcode windows and
   * backpressure; the retire step counts each of their tasks as drained when it finishes. One per
   * kernel, so ids stay unique and the per-tenant counts exact.
   */
  public TenantRegistry tenantRegistry() {
    TenantRegistry registry = tenantRegistry;
    if (registry == null) {
      synchronized (this) {
        registry = tenantRegistry;
        if (registry == null) {
          registry = new TenantRegistry(new KernelTenantRing());
          tenantRegistry = registry;
        }
      }
    }
    return registry;
  }

  /** The ring registered tenants publish into: counted publishes, so their drains come from the retire step. */
  private final class KernelTenantRing implements TenantRing {

    @Override
    public int authorizedTenants() {
      return tenantCount;
    }

    @Override
    public boolean authorized(int tenant) {
      return isTenantAuthorized(tenant);
    }

    @Override
    public long publish(int tenant, Priority priority, int opcode, int[] args) {
      return publishOne(tenant, priority, opcode, args, 0, 0, 0, null, true);
    }

    @Override
    public long publish(int tenant, Priority priority, int opcode, int arg0, int arg1, int arg2) {
      return publishOne(tenant, priority, opcode, null, arg0, arg1, arg2, null, true);
    }

    @Override
    public long publish(int tenant, TaskBatch batch) {
      return publishBatch(batch, true);
    }

    @Override
    public CompletableFuture<TaskResult> submit(int tenant, Priority priority, int opcode, int[] args) {
      CompletableFuture<TaskResult> future = new CompletableFuture<>();
      publishOne(tenant, priority, opcode, args, 0, 0, 0, future, true);
      return future;
    }

    @Override
    public long retired(int tenant) {
      // Nobody may have run a retire pass since the tenant's tasks finished (plain publishes do not
      // wake the retire thread), so run one, after any pass under way: a caller that waits on its
      // drain count makes progress and is not refused for counts another thread is adding.
      retire.retire(true);
      return retire.tenantRetired(tenant);
    }
  }

  /** An exact copy of the control block as it is now (for telemetry); after shutdown, the final one. */
  public byte[] controlSnapshot() {
    ShutdownReport finished = report;
    return finished != null ? finished.finalControl().clone() : session.snapshotControl();
  }

  /** A copy of the ring as it is now (for telemetry); after shutdown, as shutdown left it. */
  public byte[] ringSnapshot() {
    try {
      return Words.toBytes(ring);
    } catch (IllegalStateException e) {
      afterSwap(e);
      return Words.toBytes(ring);
    }
  }

  /** A copy of the PRINTF debug log, in its wire layout ({@link DebugLogLayout}). */
  public byte[] debugLogSnapshot() {
    checkSession();
    return session.snapshotDebugLog();
  }

  /**
   * The PRINTF records the kernel has logged, and how many found the log full: it keeps the first
   * {@value DebugLogLayout#RECORD_CAPACITY} until {@link #clearDebugLog()} empties it.
   */
  public DebugLogLayout.Contents debugLog() {
    return DebugLogLayout.readKept(MemorySegment.ofArray(debugLogSnapshot()));
  }

  /**
   * Takes the log's records and empties it, so that the next batch's PRINTFs are kept. Only
   * between batches: every task published so far must have finished, and no other thread may
   * publish meanwhile (a PRINTF that runs during the clear may lose its record).
   *
   * @throws PipelineException when a task is still in flight
   */
  public DebugLogLayout.Contents clearDebugLog() {
    checkSession();
    retire.retire(true);
    Stats stats = stats();
    if (stats.published() != stats.retired()) {
      throw PipelineException.queueFull("debug log", (stats.published() - stats.retired())
          + " tasks are still in flight, and a PRINTF among them would write into the log while it is cleared",
          "await or drain the published tasks before clearing the debug log");
    }
    DebugLogLayout.Contents contents = debugLog();
    session.clearDebugLog();
    return contents;
  }

  /** The session's memory is freed once shutdown has produced its report: its buffers are gone. */
  private void checkSession() {
    if (report != null) {
      throw KernelException.closed(backend.name());
    }
  }

  /** Allocates a zeroed, kernel-visible resource buffer and returns the handle slot arguments use. */
  public int allocateResource(long byteSize, dev.vyre.runtime.spi.ResourcePlacement placement) {
    checkSession();
    return session.allocateResource(byteSize, placement);
  }

  /**
   * The host view of a resource (null for a DEVICE resource on a GPU backend; use read/write). It
   * is freed by shutdown, like every resource.
   */
  public MemorySegment resource(int handle) {
    checkSession();
    return session.resource(handle);
  }

  /** Copies bytes into a resource; complete when this returns. */
  public void writeResource(int handle, long offset, MemorySegment source) {
    checkSession();
    session.writeResource(handle, offset, source);
  }

  /**
   * Starts copying the first {@code bytes} of a HOST_MAPPED resource into another resource (on a
   * GPU, by its copy engine beside the running kernel); see {@link #copyFinished}. Publish tasks
   * that read the copy only after it finished; keep the source unchanged until then.
   */
  public long startCopy(int from, int to, long bytes) {
    checkOpen();
    return session.startCopy(from, to, bytes);
  }

  /** Whether the copy numbered {@code copy} by {@link #startCopy} has finished. */
  public boolean copyFinished(long copy) {
    return session.copyFinished(copy);
  }

  /** Device-side timings of tasks where the backend was built to trace them, else empty; see KernelSession. */
  public Map<String, Double> deviceTrace(boolean reset) {
    return session.deviceTrace(reset);
  }

  /** Copies bytes out of a resource into {@code target}. */
  public void readResource(int handle, long offset, MemorySegment target) {
    checkSession();
    session.readResource(handle, offset, target);
  }

  public String backendName() {
    return backend.name();
  }

  /** Why this backend was chosen (for {@code --verbose}). */
  public String backendReason() {
    return backendReason;
  }

  public String describe() {
    return session.describe();
  }

  public int slotCount() {
    return slotCount;
  }

  public int tenantCount() {
    return tenantCount;
  }

  /**
   * Counters of the host side: tasks published, retired, and how they ended; {@code verifiedAhead}
   * of the DONE ones were counted unread, in chunks verified ahead of the retire step (by
   * publishers waiting for room, see RetireStep).
   */
  public record Stats(long published, long retired, long done, long faults, long waitIo, long verifiedAhead) {}

  public Stats stats() {
    long published = 0;
    long retired = 0;
    for (RingPartition part : partitions) {
      published += part.committed.getVolatile();
      retired += part.retired.getVolatile();
    }
    return new Stats(published, retired, retire.done(), retire.faults(), retire.waitIo(), retire.verifiedAhead());
  }

  // ---------------------------------------------------------------- for the retire thread and errors

  /** Once set (shutdown or a failure), publishes are refused; the retire thread finishes the backlog and ends. */
  boolean isClosed() {
    return closed;
  }

  /** Asks the backend whether the device reported a fault; false when it did (the kernel failed with it). */
  boolean healthy() {
    try {
      session.checkHealth();
      return true;
    } catch (KernelException e) {
      fail(e);
      return false;
    }
  }

  /** Claims plus DONE_COUNT: any claim or finish moves it (the watchdog's sign of progress). */
  long claimTotal() {
    long total = 0;
    for (int p = 0; p < partitions.length; p++) {
      total += Words.getLongAcquire(control, ControlLayout.claimSeqWord(p));
    }
    return total + Integer.toUnsignedLong(Words.getAcquire(control, ControlLayout.DONE_COUNT));
  }

  long inFlightCount() {
    long count = 0;
    for (RingPartition part : partitions) {
      count += part.taken() - part.retired.getVolatile();
    }
    return count;
  }

  /** A one-line control-block summary for errors and logs. */
  public String summary() {
    // The counters from an exact snapshot: on CUDA the mapped copy of the kernel's counters lags
    // while it is busy (the scout re-syncs it when idle), and a summary explains a failure. The
    // mapped copy when no snapshot can be had (a lost device); the doorbells and claim cursors
    // from it either way (the host writes the one, the scout mirrors the other there).
    MemorySegment exact = null;
    try {
      exact = MemorySegment.ofArray(controlSnapshot());
    } catch (RuntimeException e) {
      // No snapshot to be had: the mapped copy is all there is.
    }
    try {
      return summary(exact, control);
    } catch (IllegalStateException e) {
      afterSwap(e);
      return summary(exact, control);
    }
  }

  /** {@code exact}: the counters' snapshot, or null to read them from {@code words} too. */
  private String summary(MemorySegment exact, MemorySegment words) {
    MemorySegment counters = exact != null ? exact : words;
    StringBuilder text = new StringBuilder();
    text.append("done_count=").append(Integer.toUnsignedLong(Words.get(counters, ControlLayout.DONE_COUNT)))
        .append(" fault_count=").append(Integer.toUnsignedLong(Words.get(counters, ControlLayout.FAULT_COUNT)))
        .append(" epoch=").append(Integer.toUnsignedLong(Words.get(counters, ControlLayout.EPOCH)))
        .append(" heartbeat=").append(Integer.toUnsignedLong(Words.get(counters, ControlLayout.HEARTBEAT)))
        .append(" starvation=").append(Integer.toUnsignedLong(Words.get(counters, ControlLayout.PRIORITY_STARVATION_COUNTER)))
        .append(" in_flight=").append(inFlightCount());
    for (RingPartition part : partitions) {
      if (part.taken() != part.retired.getVolatile()) {
        text.append(" ").append(Priority.ofLevel(part.level)).append("[published=").append(part.committed.getVolatile())
            .append(" doorbell=").append(Integer.toUnsignedLong(Words.getAcquire(words, ControlLayout.publishSeqWord(part.level))))
            .append(" claimed=").append(Words.getLongAcquire(words, ControlLayout.claimSeqWord(part.level)))
            .append(" retired=").append(part.retired.getVolatile()).append("]");
      }
    }
    return text.toString();
  }

  void fail(KernelException error) {
    if (!FAILURE.compareAndSet(this, null, error)) {
      // Another thread (the retire thread, or a waiter that asked the backend) is failing it.
      return;
    }
    closeRing(System.nanoTime() + stallTimeoutNanos);
    try {
      session.abort();
    } catch (RuntimeException e) {
      error.addSuppressed(e);
    }
    retire.failAll(error);
  }

  /**
   * Refuses publishes from now on, then waits until every publisher that took tickets before has
   * committed them (up to {@code deadline}): whatever fails futures or frees the ring after this
   * sees all of theirs, and none of them writes the ring after. Between its reservation and its
   * commit a publisher neither blocks nor runs a callback.
   */
  private void closeRing(long deadline) {
    // Before the partitions close: a publisher they refuse looks at this next (checkOpen).
    closed = true;
    for (RingPartition part : partitions) {
      part.close();
    }
    int waits = 0;
    for (RingPartition part : partitions) {
      while (!part.allCommitted() && System.nanoTime() - deadline < 0) {
        Backoff.pause(waits++);
      }
    }
  }

  // ---------------------------------------------------------------- shutdown

  /**
   * Stops the kernel: sets SHUTDOWN, waits for it to exit (aborting it after {@code timeout}),
   * retires what finished, and reports every slot still in flight. Idempotent, and callable from a
   * future's callback (which runs inside a retire pass).
   */
  public ShutdownReport shutdown(Duration timeout) {
    retire.shuttingDown();
    synchronized (this) {
      if (report != null) {
        return report;
      }
      closeRing(System.nanoTime() + timeout.toNanos());
      Words.setVolatile(control, ControlLayout.SHUTDOWN, 1);
      session.wake();
      boolean exited = session.awaitExit(timeout);
      if (!exited) {
        session.abort();
      }
      closeServices();
      if (!retireThread.isCurrentThread()) {
        // (From a callback on the retire thread, that thread ends once the callback returns.)
        retireThread.join(timeout);
      }
      retire.retireLast();
      if (report != null) {
        // A future's callback in that last pass shut the kernel down already (the lock is reentrant).
        return report;
      }
      List<ShutdownReport.InFlight> inFlight = new ArrayList<>();
      for (RingPartition part : partitions) {
        for (long ticket = part.retired.getVolatile(); ticket < part.taken(); ticket++) {
          int slot = part.slotOf(ticket);
          long base = SlotLayout.slotBase(slot);
          int[] args = new int[SlotLayout.ARGS_PER_SLOT];
          for (int i = 0; i < args.length; i++) {
            args[i] = Words.get(ring, base + SlotLayout.ARG0_WORD + i);
          }
          Task task = new Task(Words.get(ring, base + SlotLayout.TENANT_WORD), Priority.ofLevel(part.level),
              Words.get(ring, base + SlotLayout.OPCODE_WORD), args);
          inFlight.add(new ShutdownReport.InFlight(part.ticketOf(ticket), slot, SlotStatus.of(Words.getAcquire(ring, base)), task));
        }
      }
      byte[] finalControl = session.snapshotControl();
      MemorySegment finalView = MemorySegment.ofArray(finalControl);
      report = new ShutdownReport(exited && failure == null, ControlLayout.readDoneCount(finalView),
          ControlLayout.readWord(finalView, ControlLayout.FAULT_COUNT), inFlight, finalControl);
      control = heapCopy(control);
      ring = heapCopy(ring);
      express = MemorySegment.ofArray(new long[0]);
      retire.detach(control, ring);
      session.close();
      // Last: their callbacks find the kernel shut down, and a shutdown in one returns this report.
      KernelException closedError = failure != null ? failure : KernelException.closed(backend.name());
      for (ShutdownReport.InFlight task : inFlight) {
        retire.fail(task.slot(), closedError);
      }
      return report;
    }
  }

  /** An 8-byte-aligned heap copy, so the ordered and u64 accessors keep working on it. */
  private static MemorySegment heapCopy(MemorySegment segment) {
    MemorySegment copy = MemorySegment.ofArray(new long[(int) ((segment.byteSize() + 7) / 8)]).asSlice(0, segment.byteSize());
    copy.copyFrom(segment);
    return copy;
  }

  /** Shuts down with a 10-second grace period; see {@link #shutdown(Duration)}. */
  @Override
  public void close() {
    shutdown(Duration.ofSeconds(10));
  }

  /**
   * The service of type {@code type} bound to this kernel (the IO request pump is one), made from the
   * backend session by {@code factory} on the first call and closed by {@link #shutdown} once the
   * kernel has exited. Modules above the ring core attach themselves this way, so the core needs none
   * of them.
   */
  public synchronized <T extends AutoCloseable> T service(Class<T> type, Function<KernelSession, ? extends T> factory) {
    checkOpen();
    AutoCloseable existing = services.get(type);
    if (existing != null) {
      return type.cast(existing);
    }
    T made = factory.apply(session);
    services.put(type, made);
    return made;
  }

  private void closeServices() {
    for (AutoCloseable service : services.values()) {
      try {
        service.close();
      } catch (Exception e) {
        throw new IllegalStateException("closing " + service + " at shutdown", e);
      }
    }
    services.clear();
  }

  /** The failure that stopped the kernel, if any. */
  public KernelException failure() {
    return failure;
  }
}
