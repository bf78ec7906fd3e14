package dev.vyre.reference;

import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.dfa.DfaTableLayout;
import dev.vyre.runtime.dfa.PromotedDfa;
import dev.vyre.runtime.spi.HostViews;
import dev.vyre.runtime.spi.KernelMemory;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.DebugLogLayout;
import dev.vyre.runtime.wire.ExpressLayout;
import dev.vyre.runtime.wire.IoQueueLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * One reference megakernel: arena memory for the four buffers and the worker threads. Every
 * segment it hands out belongs to one shared arena, which {@link #close()} closes to free the
 * memory: a holder's access after that (or racing it) throws IllegalStateException rather than
 * reading freed memory, and the session's own calls answer with {@code Closed} or the final
 * snapshots, as the CUDA session's do.
 */
final class ReferenceSession implements KernelSession {

  /** How long close() waits for an operation holding the arena (a FileChannel read into a chunk buffer). */
  private static final Duration VIEW_PATIENCE = Duration.ofSeconds(5);
  // Through System.Logger, so that an application embedding vyre routes or silences it.
  private static final System.Logger LOG = System.getLogger(ReferenceSession.class.getName());

  /** DFA_STEP tasks scanned with a promoted table (workers count them). */
  final LongAdder promotedTasks = new LongAdder();

  private final KernelSpec spec;
  private final Arena arena = Arena.ofShared();
  private final KernelMemory memory;
  /** Which task owns each IO slot: the handlers' side of the reads they ask for. */
  final ReferenceIoSlots ioSlots;
  private final CopyOnWriteArrayList<MemorySegment> resources = new CopyOnWriteArrayList<>();
  /**
   * Handles of DEVICE resources, the only ones that may hold a wave gate table: CUDA cannot use
   * device atomics on mapped host memory, and the reference refuses the same tables.
   */
  private final CopyOnWriteArrayList<Boolean> deviceResident = new CopyOnWriteArrayList<>();
  /** Promoted DFA tables by handle (null: not promoted), replaced whole on each change: tasks read it without a lock. */
  private volatile PromotedDfa[] promoted = new PromotedDfa[0];
  private final Thread[] threads;
  private final ReferenceWorker[] workers;
  /** Workers parked while idle; publishers wake one only when this is non-zero. */
  final AtomicInteger sleepers = new AtomicInteger();
  /** Workers idle and not parked: they poll the doorbells, so a publish need wake nobody. */
  final AtomicInteger idleAwake = new AtomicInteger();
  volatile boolean aborted;
  /** Workers 0..activeWorkers-1 claim new work; the rest park (setActiveWorkerGroups). */
  volatile int activeWorkers;
  /** Set by a worker that found the host breaking the protocol; {@link #checkHealth()} reports it. */
  volatile String protocolViolation;
  /** What ended a worker thread (a handler's Error); {@link #checkHealth()} reports it. */
  private volatile Throwable workerFailure;
  private final AtomicInteger running = new AtomicInteger();
  /** Set first by {@link #close()}: the host's calls are refused with {@code Closed} from then on. */
  private volatile boolean closed;
  /** The control block and debug log as they were when {@link #close()} freed the memory. */
  private volatile byte[] finalControl;
  private volatile byte[] finalDebugLog;

  ReferenceSession(KernelSpec spec) {
    this.spec = spec;
    MemorySegment control = arena.allocate(ControlLayout.byteLength(spec.observableSlots()), 64);
    MemorySegment ring = arena.allocate(SlotLayout.ringByteLength(spec.slotCount()), 64);
    MemorySegment debug = arena.allocate(DebugLogLayout.BUFFER_BYTES, 64);
    MemorySegment io = arena.allocate(IoQueueLayout.byteLength(IoQueueLayout.IO_SLOT_COUNT), 64);
    // The reference workers read slots from the ring; they check the express copies they are given.
    MemorySegment express = arena.allocate(ExpressLayout.byteLength(spec.slotCount()), 64);
    this.memory = new KernelMemory(control, ring, debug, io, express);
    this.ioSlots = new ReferenceIoSlots(io, control);
    int count = spec.workers() > 0 ? spec.workers() : ReferenceBackend.defaultWorkers();
    this.workers = new ReferenceWorker[count];
    this.activeWorkers = count;
    this.threads = new Thread[count];
    for (int i = 0; i < count; i++) {
      workers[i] = new ReferenceWorker(this, i, spec);
    }
  }

  @Override
  public KernelMemory memory() {
    return memory;
  }

  /** Synchronized: the handle is the index the buffer gets, which two threads adding at once would share. */
  @Override
  public synchronized int allocateResource(long byteSize, dev.vyre.runtime.spi.ResourcePlacement placement) {
    if (byteSize < 0) {
      throw PipelineException.invalidArgument("resource", "resource size " + byteSize + " is negative", "pass a size of at least 0 bytes");
    }
    // Under the lock close() takes too: the arena cannot close between this check and the allocation.
    checkOpen();
    // Page-aligned like CUDA's pinned host memory, so that io_uring can register chunk buffers.
    // Added before its segment, so a handle a task can see always has its placement.
    deviceResident.add(placement == dev.vyre.runtime.spi.ResourcePlacement.DEVICE);
    resources.add(arena.allocate(Math.max(byteSize, 1), 4096).asSlice(0, byteSize));
    return resources.size() - 1;
  }

  @Override
  public MemorySegment resource(int handle) {
    checkOpen();
    return resourceView(handle);
  }

  /**
   * Checks the table at the handle ({@link DfaTableLayout#validate}) and that {@code compact} is its
   * promoted form, then swaps in the arrays: a task that started before reads the table it started with.
   */
  @Override
  public synchronized void promoteDfaTable(int tableHandle, MemorySegment compact) {
    MemorySegment table = checkedResource(tableHandle);
    String name = "DFA table " + tableHandle;
    DfaTableLayout.validate(table, name);
    PromotedDfa arrays = PromotedDfa.of(compact, table, "promoted " + name);
    PromotedDfa[] next = Arrays.copyOf(promoted, Math.max(promoted.length, tableHandle + 1));
    next[tableHandle] = arrays;
    promoted = next;
  }

  @Override
  public synchronized void demoteDfaTable(int tableHandle) {
    if (tableHandle >= 0 && tableHandle < promoted.length && promoted[tableHandle] != null) {
      PromotedDfa[] next = promoted.clone();
      next[tableHandle] = null;
      promoted = next;
    }
  }

  @Override
  public long promotedTasks() {
    return promotedTasks.sum();
  }

  /** The promoted form of DFA table {@code handle}, or null: what DFA_STEP scans with instead of the table. */
  PromotedDfa promotedDfa(int handle) {
    PromotedDfa[] now = promoted;
    return handle >= 0 && handle < now.length ? now[handle] : null;
  }

  /** A DEVICE resource, or null: what a wave gate may name (WaveGateLayout). */
  MemorySegment deviceResourceView(int handle) {
    return handle >= 0 && handle < resources.size() && deviceResident.get(handle) ? resources.get(handle) : null;
  }

  /** A resource for the kernel's own handlers, which close() waits for before it frees anything. */
  MemorySegment resourceView(int handle) {
    return handle >= 0 && handle < resources.size() ? resources.get(handle) : null;
  }

  @Override
  public void writeResource(int handle, long offset, MemorySegment source) {
    MemorySegment resource = checkedResource(handle);
    try {
      resource.asSlice(offset, source.byteSize()).copyFrom(source);
    } catch (IllegalStateException e) {
      throw closedRace(e);
    }
  }

  @Override
  public void readResource(int handle, long offset, MemorySegment target) {
    MemorySegment resource = checkedResource(handle);
    try {
      target.copyFrom(resource.asSlice(offset, target.byteSize()));
    } catch (IllegalStateException e) {
      throw closedRace(e);
    }
  }

  private void checkOpen() {
    if (closed) {
      throw KernelException.closed("reference");
    }
  }

  /**
   * A call that passed {@link #checkOpen()} while close() ran: its access to the freed arena
   * threw, which is {@code Closed} to the caller. Anything else is rethrown as it was.
   */
  private RuntimeException closedRace(IllegalStateException e) {
    return closed && !arena.scope().isAlive() ? KernelException.closed("reference") : e;
  }

  private MemorySegment checkedResource(int handle) {
    MemorySegment segment = resource(handle);
    if (segment == null) {
      throw PipelineException.invalidArgument("resource", "no resource has handle " + handle, "use a handle returned by allocateResource");
    }
    return segment;
  }

  @Override
  public byte[] snapshotControl() {
    return snapshot(memory.control(), true);
  }

  @Override
  public byte[] snapshotDebugLog() {
    return snapshot(memory.debugLog(), false);
  }

  @Override
  public void clearDebugLog() {
    MemorySegment log = memory.debugLog();
    // Records first, then the cursor with release: a worker that reserves after it writes over zeros.
    log.asSlice(4L * DebugLogLayout.RECORDS_BASE).fill((byte) 0);
    Words.setRelease(log, DebugLogLayout.CURSOR_WORD, 0);
  }

  /** The buffer now, or, once close() freed it, what it held then (also for a copy that raced the free). */
  private byte[] snapshot(MemorySegment buffer, boolean isControl) {
    try {
      return Words.toBytes(buffer);
    } catch (IllegalStateException e) {
      byte[] last = isControl ? finalControl : finalDebugLog;
      if (last == null) {
        throw e;
      }
      return last.clone();
    }
  }

  @Override
  public void launch() {
    Words.setVolatile(memory.control(), ControlLayout.KERNEL_STATE, ControlLayout.KERNEL_STATE_RUNNING);
    running.set(workers.length);
    for (int i = 0; i < workers.length; i++) {
      threads[i] = Thread.ofPlatform().daemon().name("vyre-reference-worker-" + i).start(workers[i]);
    }
  }

  /** Called by a worker that {@code error} ended: the other workers stop too, as a GPU kernel's warps do on a trap. */
  void workerFailed(Throwable error) {
    if (workerFailure == null) {
      workerFailure = error;
    }
    abort();
  }

  /** Called by each worker as it leaves its loop; the last one marks the kernel exited. */
  void workerExited() {
    if (running.decrementAndGet() == 0) {
      Words.setVolatile(memory.control(), ControlLayout.KERNEL_STATE, ControlLayout.KERNEL_STATE_EXITED);
    }
  }

  /**
   * After a doorbell: wakes one parked worker, unless a worker is idle and awake (it finds the work
   * itself). Waking every worker on every publish made a one-task round trip's publish far slower
   * with many workers (IdleStrategy has the measurement). A worker that claims a batch and sees
   * more waiting calls this again, so a burst wakes as many workers as it keeps busy. A worker
   * counts itself out of {@link #idleAwake} and into {@link #sleepers} before it looks at the
   * doorbells a last time and parks, and a publisher moves a doorbell before it reads the two: one
   * of them sees the other.
   */
  @Override
  public void wake() {
    if (sleepers.get() > 0 && idleAwake.get() == 0) {
      for (int i = 0; i < activeWorkers; i++) {
        if (workers[i].parked) {
          LockSupport.unpark(threads[i]);
          return;
        }
      }
    }
  }

  /** Wakes every worker: the kernel is ending (SHUTDOWN), and each must see it. */
  void wakeAll() {
    for (Thread thread : threads) {
      if (thread != null) {
        LockSupport.unpark(thread);
      }
    }
  }

  /**
   * Waits for every worker to end, up to {@code timeout}. An interrupt does not cut the wait short
   * (shutdown from an interrupted thread would otherwise abort a kernel that was about to exit,
   * and close would keep memory a worker still ran on); it is kept for the caller.
   */
  @Override
  public boolean awaitExit(Duration timeout) {
    // The host set SHUTDOWN before it waits here; parked workers see it once woken.
    wakeAll();
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean interrupted = false;
    try {
      for (Thread thread : threads) {
        while (thread != null && thread.isAlive()) {
          long remaining = deadline - System.nanoTime();
          if (remaining <= 0) {
            return false;
          }
          try {
            thread.join(Duration.ofNanos(remaining));
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
      }
      return true;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void abort() {
    aborted = true;
    for (Thread thread : threads) {
      // Null before launch, and in a worker's copy of a thread started after it.
      if (thread != null) {
        LockSupport.unpark(thread);
        thread.interrupt();
      }
    }
  }

  @Override
  public void checkHealth() {
    // Java workers report a handler's RuntimeException by faulting the slot; the asynchronous errors
    // are a host that broke the protocol, which a GPU would have run silently, and a dead worker.
    String violation = protocolViolation;
    if (violation != null) {
      throw KernelException.protocolViolation("reference", violation);
    }
    Throwable died = workerFailure;
    if (died != null) {
      throw KernelException.deviceFault("reference", "a worker thread died of " + died
          + " (a handler that throws an Error ends the kernel; a RuntimeException faults only its slot)", "", died);
    }
  }

  @Override
  public int workerGroups() {
    return workers.length;
  }

  @Override
  public boolean compiledAtStart() {
    return false;
  }

  @Override
  public int lanesPerWorkerGroup() {
    return 1;
  }

  @Override
  public void setActiveWorkerGroups(int active) {
    activeWorkers = active;
    // A shed worker that read the old count may be claiming: once it has ended, no shed worker claims
    // anything published from now on (ReferenceWorker.claimWhileActive). A claim takes no task's time.
    for (int w = active; w < workers.length; w++) {
      while (workers[w].claiming) {
        Thread.onSpinWait();
      }
    }
    // Newly active workers may be parked; shed ones look again and park.
    wakeAll();
  }

  @Override
  public String describe() {
    return "reference" + (spec.device() > 0 ? " (device " + spec.device() + ", a label: every device is this CPU)" : "")
        + ": " + workers.length + " worker thread(s), " + spec.slotCount() + " slots, "
        + spec.observableSlots() + " observables";
  }

  /** The device label {@link KernelSpec#device()} gave: every reference "device" is this machine's CPU. */
  @Override
  public int device() {
    return Math.max(0, spec.device());
  }

  /** Idempotent; a second call after a handler kept its worker alive tries to free the memory again. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      abort();
      awaitExit(Duration.ofSeconds(5));
      for (Thread thread : threads) {
        if (thread != null && thread.isAlive()) {
          // A handler that never returns keeps its thread; freeing the memory under it would crash the JVM.
          return;
        }
      }
      if (!arena.scope().isAlive()) {
        return;
      }
      // Before the free: snapshots answer from these once the buffers are gone.
      finalControl = Words.toBytes(memory.control());
      finalDebugLog = Words.toBytes(memory.debugLog());
    }
    // Outside the lock: a scan still reading into a chunk buffer here may need it (an allocation,
    // refused now) before it stops and its reads come back. The memory goes back to malloc, so a
    // read the kernel still performs into it must come back first.
    if (!HostViews.endAfterHeldReads(arena, VIEW_PATIENCE)) {
      LOG.log(System.Logger.Level.WARNING, "an operation still holds the reference session's memory (a read into a chunk"
          + " buffer) " + VIEW_PATIENCE.toSeconds() + " s after shutdown; the memory stays allocated until the process exits");
    }
  }
}
