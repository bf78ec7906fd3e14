package dev.vyre.cuda;

import dev.vyre.cuda.internal.CudaContext;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.cuda.internal.Releases;
import dev.vyre.cuda.internal.ResidentKernels;
import dev.vyre.cuda.wire.ControlCopies;
import dev.vyre.cuda.wire.DeviceStateLayout;
import dev.vyre.cuda.wire.KernelArgsLayout;
import dev.vyre.cuda.wire.PromotedCopyLayout;
import dev.vyre.driver.error.DeviceException;
import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.IdleStrategy;
import dev.vyre.runtime.dfa.DfaTableLayout;
import dev.vyre.runtime.dfa.PromotedDfaLayout;
import dev.vyre.runtime.spi.HostViews;
import dev.vyre.runtime.spi.KernelMemory;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.DebugLogLayout;
import dev.vyre.runtime.wire.ExpressLayout;
import dev.vyre.runtime.wire.IoQueueLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One persistent megakernel on a CUDA device.
 *
 * <p>Where the ring lives: pinned host memory mapped into the device (not device memory plus a
 * copy). The host writes each slot with ordinary stores at memory speed (71-84 M slots/s from one
 * Java thread, measured on an H200), the device reads only the slots it claimed (51 GB/s of
 * mapped reads = 800 M slots/s), and completions are visible to the host without a copy or a
 * synchronize. What must not cross PCIe on every poll — the claim cursors and the doorbell mirror
 * that every warp reads — lives in device memory ({@code VyreDeviceState}), refreshed by one scout
 * warp. Device memory plus a doorbell would need a host-to-device copy per batch (a driver call,
 * microseconds) before the kernel could see the work; measured figures are in docs/BENCHMARKS.md.
 *
 * <p>The pinned buffers are raw addresses the driver gave; what the session hands out ({@link
 * #memory()}, {@link #resource}) are views of them scoped to {@link #views}, which {@link #close()}
 * closes before it frees the memory: a holder's access (a waiter racing shutdown) then throws
 * IllegalStateException instead of reading freed memory and crashing the JVM.
 */
final class CudaSession implements KernelSession {

  // Warnings go through System.Logger, so that an application embedding vyre routes or silences them.
  private static final System.Logger LOG = System.getLogger(CudaSession.class.getName());

  static final int BLOCK_SIZE = 256;
  /** Builds the kernel with -DVYRE_TRACE: per-stage device timings for round trips (vyre bench dispatch). */
  private static final boolean TRACE = Boolean.getBoolean("vyre.cuda.trace");
  /** Source lines in the kernel's code (NVRTC -lineinfo), for cuda-gdb and compute-sanitizer reports. */
  private static final boolean LINE_INFO = Boolean.getBoolean("vyre.cuda.lineinfo");
  private static final int SCOUT_IDLE_NS = Integer.getInteger("vyre.cuda.scoutIdleNs", 50_000);
  private static final int SCOUT_HOT_NS = Integer.getInteger("vyre.cuda.scoutHotNs", 2_000_000);
  private static final int WORKER_IDLE_NS = Integer.getInteger("vyre.cuda.workerIdleNs", 1_000);
  /** Express helper warps beside the scout (megakernel/scout.cu, vyre_express_helper): 0 or 1 measured best. */
  private static final int EXPRESS_HELPERS = Math.clamp(Integer.getInteger("vyre.cuda.expressHelpers", 1), 0, 4);
  /**
   * Launches with shared memory for a promoted DFA table in every block (megakernel/dfa.cu): false launches
   * without, and promotion is refused.
   */
  private static final boolean PROMOTION = Boolean.parseBoolean(System.getProperty("vyre.cuda.promotion", "true"));
  /** How long close() waits for an operation holding a view (a FileChannel read into a chunk buffer). */
  private static final Duration VIEW_PATIENCE = Duration.ofSeconds(5);

  private final CudaDriver driver;
  private final CudaDevice device;
  private final CudaContext context;
  private final MemorySegment module;
  private final MemorySegment function;
  private final MemorySegment stream;
  private final KernelMemory memory;
  private final KernelDeviceState deviceState;
  /** The authoritative copy of every control word the kernel changes (see megakernel/memory.cu). */
  private final long deviceControl;
  /** The PRINTF log lives on the device: its cursor is an atomic. */
  private final long deviceDebugLog;
  private final CudaResources resources;
  /** Which task owns each IO slot (megakernel/io.cu, vyre_io_read): device memory, since the kernel CASes it. */
  private final long ioOwners;
  private final int grid;
  /** Dynamic shared memory per block: a promoted table's copy and its head, or 0. */
  private final int sharedBytes;
  private final PromotedTables promoted;
  private long promotedTasks;
  private final boolean cooperative;
  private final PipelineCache.Outcome cacheOutcome;
  /** Scopes every host view this session hands out, and the launch arguments; see the class comment. */
  private final Arena views = Arena.ofShared();
  /** How to free everything allocated so far, newest first (the constructor's steps, then resources). */
  private final Releases releases = new Releases();
  private final SessionMemory allocate;
  /** The control block and debug log as they were when {@link #close()} ended the views of them. */
  private byte[] finalControl;
  private byte[] finalDebugLog;
  /** close() ended the host views: snapshots answer from the final copies. */
  private boolean viewsEnded;
  /** close() freed (or a context reset destroyed) the stream and every buffer. */
  private boolean released;
  private boolean launched;
  private boolean closed;
  private boolean abortRequested;

  CudaSession(KernelSpec spec) {
    this.driver = CudaDriver.load();
    this.context = CudaContext.retain(driver, spec.device());
    this.device = context.device();
    this.allocate = new SessionMemory(driver, releases, views);
    // Each step registers its release: a later failure (an NVRTC error in a user opcode's body, out
    // of memory) frees what the earlier steps allocated instead of leaking it with the retain.
    releases.add(context::release);
    try {
      List<String> options = new ArrayList<>(List.of("-default-device", "-DVYRE_EXPRESS_HELPERS=" + EXPRESS_HELPERS + "u"));
      if (TRACE) {
        options.add("-DVYRE_TRACE");
      }
      if (LINE_INFO) {
        options.add("-lineinfo");
      }
      PipelineCache.Entry compiled = PipelineCache.standard().compileFor(device, KernelSource.megakernel(spec.userOpcodes()),
          KernelSource.MEGAKERNEL, options);
      this.cacheOutcome = compiled.outcome();
      MemorySegment loaded = driver.loadModule(compiled.cubin());
      this.module = loaded;
      releases.add(() -> driver.unloadModule(loaded));
      this.function = driver.function(module, "vyre_megakernel");
      MemorySegment created = driver.createStream();
      this.stream = created;
      releases.add(() -> driver.destroyStream(created));
      MemorySegment control = allocate.mapped(ControlLayout.byteLength(spec.observableSlots()));
      MemorySegment ring = allocate.mapped(SlotLayout.ringByteLength(spec.slotCount()));
      MemorySegment debug = allocate.mapped(DebugLogLayout.BUFFER_BYTES);
      MemorySegment io = allocate.mapped(IoQueueLayout.byteLength(IoQueueLayout.IO_SLOT_COUNT));
      MemorySegment express = allocate.mapped(ExpressLayout.byteLength(spec.slotCount()));
      this.memory = new KernelMemory(control, ring, debug, io, express);
      this.deviceControl = allocate.device(control.byteSize(), false);
      this.deviceDebugLog = allocate.device(debug.byteSize(), true);
      this.deviceState = new KernelDeviceState(driver, allocate.device(DeviceStateLayout.BYTES, true));
      this.resources = new CudaResources(allocate, context);
      this.ioOwners = allocate.device(IoQueueLayout.IO_SLOT_COUNT * 4L, true);
      int shared = PromotedCopyLayout.HEADER_BYTES + PromotedDfaLayout.MAX_BYTES;
      if (!PROMOTION || driver.attribute(device.ordinal(), CudaDriver.ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN) < shared) {
        shared = 0;
      } else {
        driver.allowDynamicSharedBytes(function, shared);
      }
      this.sharedBytes = shared;
      this.promoted = new PromotedTables(driver, allocate, deviceState, shared == 0 ? 0 : PromotedDfaLayout.MAX_BYTES);
      int perSm = driver.maxActiveBlocksPerSm(function, BLOCK_SIZE, shared);
      if (perSm < 1) {
        throw PipelineException.backend("the megakernel cannot be resident with " + BLOCK_SIZE + " threads per block. Fix: report this with `vyre doctor` output");
      }
      // spec.workers() counts reference threads; the grid is one block per SM unless vyre.cuda.blocks says otherwise.
      int requested = Integer.getInteger("vyre.cuda.blocks", device.multiprocessors());
      // Every block must be co-resident: the scout is a warp of block 0 and workers never yield the SM.
      this.grid = Math.min(requested, perSm * device.multiprocessors());
      this.cooperative = device.cooperativeLaunch();
    } catch (RuntimeException | Error e) {
      views.close();
      releases.releaseAfter(e);
      throw e;
    }
  }

  @Override
  public KernelMemory memory() {
    return memory;
  }

  @Override
  public synchronized int allocateResource(long byteSize, ResourcePlacement placement) {
    checkOpen();
    return resources.allocate(byteSize, placement);
  }

  @Override
  public synchronized MemorySegment resource(int handle) {
    checkOpen();
    return resources.hostView(handle);
  }

  @Override
  public synchronized void writeResource(int handle, long offset, MemorySegment source) {
    checkOpen();
    resources.write(handle, offset, source);
  }

  @Override
  public synchronized void readResource(int handle, long offset, MemorySegment target) {
    checkOpen();
    resources.read(handle, offset, target);
  }

  /** With vyre.cuda.trace, the device's per-stage timings ({@link KernelDeviceState#trace}); empty without it. */
  @Override
  public synchronized Map<String, Double> deviceTrace(boolean reset) {
    if (!TRACE || closed) {
      return Map.of();
    }
    context.makeCurrent();
    return deviceState.trace(reset);
  }

  @Override
  public synchronized long startCopy(int from, int to, long bytes) {
    checkOpen();
    return resources.startCopy(from, to, bytes);
  }

  @Override
  public synchronized boolean copyFinished(long copy) {
    // close() waited for every copy before it freed the queue.
    return closed || resources.copyFinished(copy);
  }

  /** The buffers are freed once closed: a late caller gets a typed error, not a read of freed pinned memory. */
  private void checkOpen() {
    if (closed) {
      throw KernelException.closed("cuda");
    }
  }

  @Override
  public byte[] snapshotControl() {
    return snapshot(memory.control(), deviceControl, true);
  }

  @Override
  public byte[] snapshotDebugLog() {
    return snapshot(memory.debugLog(), deviceDebugLog, false);
  }

  @Override
  public synchronized void clearDebugLog() {
    checkOpen();
    context.makeCurrent();
    allocate.zero(deviceDebugLog, memory.debugLog().byteSize());
    allocate.awaitLegacyStream();
    // The mapped copy only receives copies out; keep it in step.
    memory.debugLog().fill((byte) 0);
  }

  /**
   * While the kernel runs: a device-to-host copy of the authoritative words (it runs beside the
   * kernel, whose stream is non-blocking), with the host-written control words from the mapped
   * copy. Once the kernel has exited: the mapped control copy, which the last warp left exact,
   * and the debug log copied out. After a device fault the mapped copy is all there is.
   */
  private synchronized byte[] snapshot(MemorySegment mapped, long device, boolean isControl) {
    if (viewsEnded) {
      // The mapped copy is freed, or still held by a kernel that ignored close: what it held then.
      return (isControl ? finalControl : finalDebugLog).clone();
    }
    if (closed || !launched) {
      return Words.toBytes(mapped);
    }
    context.makeCurrent();
    int state = driver.queryStream(stream);
    if (state == CudaDriver.CUDA_ERROR_NOT_READY) {
      try (Arena scratch = Arena.ofConfined()) {
        MemorySegment copy = scratch.allocate(mapped.byteSize(), 8);
        driver.copyToHost(copy, device, mapped.byteSize());
        if (isControl) {
          for (int word : ControlCopies.HOST_WRITTEN_WORDS) {
            Words.set(copy, word, Words.getAcquire(mapped, word));
          }
        }
        return Words.toBytes(copy);
      }
    }
    if (state == CudaDriver.CUDA_SUCCESS && !isControl) {
      driver.copyToHost(mapped, device, mapped.byteSize());
    }
    return Words.toBytes(mapped);
  }

  @Override
  public synchronized void launch() {
    checkOpen();
    context.makeCurrent();
    // The host encoded the control block in the mapped copy; the device copy starts equal to it.
    driver.copyToDevice(deviceControl, memory.control(), memory.control().byteSize());
    MemorySegment args = views.allocate(KernelArgsLayout.BYTES, KernelArgsLayout.ALIGNMENT);
    KernelArgsLayout.putPointer(args, KernelArgsLayout.CONTROL_OFFSET, driver.devicePointer(memory.control()));
    KernelArgsLayout.putPointer(args, KernelArgsLayout.DCONTROL_OFFSET, deviceControl);
    KernelArgsLayout.putU32(args, KernelArgsLayout.CONTROL_WORDS_OFFSET, (int) Words.count(memory.control()));
    KernelArgsLayout.putPointer(args, KernelArgsLayout.RING_OFFSET, driver.devicePointer(memory.ring()));
    KernelArgsLayout.putU32(args, KernelArgsLayout.SLOT_COUNT_OFFSET, (int) (memory.ring().byteSize() / SlotLayout.SLOT_BYTES));
    KernelArgsLayout.putPointer(args, KernelArgsLayout.DEBUG_LOG_OFFSET, deviceDebugLog);
    KernelArgsLayout.putU32(args, KernelArgsLayout.DEBUG_WORDS_OFFSET, (int) Words.count(memory.debugLog()));
    KernelArgsLayout.putPointer(args, KernelArgsLayout.STATE_OFFSET, deviceState.address());
    KernelArgsLayout.putPointer(args, KernelArgsLayout.RESOURCES_OFFSET, resources.table());
    KernelArgsLayout.putU32(args, KernelArgsLayout.RESOURCE_CAPACITY_OFFSET, CudaResources.CAPACITY);
    KernelArgsLayout.putU32(args, KernelArgsLayout.SCOUT_IDLE_NS_OFFSET, SCOUT_IDLE_NS);
    KernelArgsLayout.putU32(args, KernelArgsLayout.WORKER_IDLE_NS_OFFSET, WORKER_IDLE_NS);
    KernelArgsLayout.putU32(args, KernelArgsLayout.SCOUT_HOT_NS_OFFSET, SCOUT_HOT_NS);
    KernelArgsLayout.putPointer(args, KernelArgsLayout.EXPRESS_OFFSET, driver.devicePointer(memory.express()));
    KernelArgsLayout.putPointer(args, KernelArgsLayout.IO_QUEUE_OFFSET, driver.devicePointer(memory.ioQueue()));
    KernelArgsLayout.putPointer(args, KernelArgsLayout.IO_OWNER_OFFSET, ioOwners);
    MemorySegment params = views.allocate(ADDRESS);
    params.set(ADDRESS, 0, args);
    if (cooperative) {
      driver.launchCooperative(function, grid, BLOCK_SIZE, sharedBytes, stream, params);
    } else {
      driver.launch(function, grid, BLOCK_SIZE, sharedBytes, stream, params);
    }
    launched = true;
    ResidentKernels.launched(device.ordinal());
    allocate.launched();
  }

  @Override
  public void wake() {
    // The scout polls the doorbells itself; there is nothing to wake.
  }

  @Override
  public boolean awaitExit(Duration timeout) {
    return pollUntil(this::exited, timeout);
  }

  /** Under the lock, so that close() cannot destroy the stream between the check and the query. */
  private synchronized boolean exited() {
    if (!launched || released) {
      return true;
    }
    context.makeCurrent();
    return driver.queryStream(stream) != CudaDriver.CUDA_ERROR_NOT_READY;
  }

  /**
   * Polls {@code done} every 100 µs until it is true (true) or {@code timeout} passed (false). An
   * interrupt does not cut the wait short (the kernel may still use the memory the caller frees
   * next) and does not turn it into a spin either: parkNanos returns at once while the flag is set,
   * so the flag is cleared for the wait and set again on return.
   */
  static boolean pollUntil(java.util.function.BooleanSupplier done, Duration timeout) {
    IdleStrategy idle = IdleStrategy.sleeping(100_000);
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean interrupted = Thread.interrupted();
    try {
      while (!done.getAsBoolean()) {
        if (System.nanoTime() - deadline > 0) {
          return false;
        }
        idle.idle();
        interrupted |= Thread.interrupted();
      }
      return true;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Tears the kernel down without its cooperation: sets SHUTDOWN, and sets the device-side abort
   * flag (a copy on the legacy stream, which runs beside the kernel's non-blocking stream) so that
   * every warp still polling executes {@code __trap()}. A kernel whose warps are all stuck in
   * handlers cannot be stopped from the host at all (cuDevicePrimaryCtxReset then blocks), so
   * {@link #close()} gives such a context up rather than hang.
   */
  @Override
  public synchronized void abort() {
    if (closed) {
      // close() set SHUTDOWN and ended the views (a late abort from a stall noticed during shutdown).
      return;
    }
    Words.setVolatile(memory.control(), ControlLayout.SHUTDOWN, 1);
    if (!launched || abortRequested) {
      return;
    }
    abortRequested = true;
    try {
      context.makeCurrent();
      deviceState.writeWord(DeviceStateLayout.ABORT_OFFSET, 1);
    } catch (DeviceException e) {
      // The context already holds a sticky error: the kernel is gone, which is what abort wants.
    }
  }

  @Override
  public int device() {
    return device.ordinal();
  }

  @Override
  public int workerGroups() {
    return grid;
  }

  @Override
  public boolean compiledAtStart() {
    return cacheOutcome != PipelineCache.Outcome.HIT;
  }

  @Override
  public int lanesPerWorkerGroup() {
    return BLOCK_SIZE;
  }

  @Override
  public synchronized void setActiveWorkerGroups(int active) {
    checkOpen();
    context.makeCurrent();
    deviceState.writeWord(DeviceStateLayout.ACTIVE_BLOCKS_OFFSET, active == grid ? 0 : active);
  }

  /**
   * DFA_STEP tasks on the table at {@code handle} scan with {@code compact} from the next task on: each block
   * loads it into its shared memory when a task first needs it (megakernel/dfa.cu). The table is read back
   * once to check that {@code compact} is its promoted form.
   */
  @Override
  public synchronized void promoteDfaTable(int handle, MemorySegment compact) {
    checkOpen();
    context.makeCurrent();
    promoted.promote(handle, compact);
  }

  /** Reads the table back and checks it and {@code compact} holding the session only for the read. */
  @Override
  public void checkDfaPromotion(int handle, MemorySegment compact) {
    try (Arena scratch = Arena.ofConfined()) {
      MemorySegment table;
      synchronized (this) {
        checkOpen();
        context.makeCurrent();
        table = scratch.allocate(resources.byteSize(handle), 8);
        resources.read(handle, 0, table);
      }
      String name = "DFA table " + handle;
      DfaTableLayout.validate(table, name);
      PromotedDfaLayout.requireCompactOf(compact, table, "promoted " + name);
    }
  }

  /** Each block scans a promoted table from shared memory: faster than its table reads through L1. */
  @Override
  public boolean promotedDfaIsFaster() {
    return promoted.capacity() > 0;
  }

  /** What the kernel counted: DFA_STEP tasks scanned with a block's copy (after close, the last count read). */
  @Override
  public synchronized long promotedTasks() {
    if (!closed) {
      context.makeCurrent();
      promotedTasks = promoted.tasks();
    }
    return promotedTasks;
  }

  @Override
  public synchronized void demoteDfaTable(int handle) {
    if (closed) {
      return;  // the kernel is gone, and its promotion with it
    }
    context.makeCurrent();
    promoted.demote(handle);
  }

  @Override
  public synchronized void checkHealth() {
    if (!launched || closed) {
      return;
    }
    context.makeCurrent();
    int result = driver.queryStream(stream);
    if (result != CudaDriver.CUDA_SUCCESS && result != CudaDriver.CUDA_ERROR_NOT_READY) {
      // Any error of the persistent kernel's stream is the kernel's own fault, sticky to the context.
      throw KernelException.deviceLost("cuda", driver.errorName(result) + " (" + driver.errorString(result) + ")", "");
    }
  }

  @Override
  public String describe() {
    return "cuda: device " + device.ordinal() + ", " + device.describe() + ", " + grid + " blocks x " + BLOCK_SIZE + " threads"
        + (cooperative ? " (cooperative launch)" : "") + ", " + Words.count(memory.ring()) / SlotLayout.SLOT_WORDS + " slots"
        + resources.describe() + ", kernel " + switch (cacheOutcome) {
          case HIT -> "from the pipeline cache";
          case MISS -> "compiled by NVRTC";
          case REBUILT_CORRUPT -> "recompiled (corrupt cache entry)";
        };
  }

  /**
   * Stops the kernel, ends the host views, then frees the memory: in that order, so that a holder
   * of a view racing this either finished its access before the free or gets IllegalStateException.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    context.makeCurrent();
    Words.setVolatile(memory.control(), ControlLayout.SHUTDOWN, 1);
    if (launched && !awaitExit(Duration.ofSeconds(2))) {
      abort();
      if (!awaitExit(Duration.ofSeconds(5))) {
        // The memory stays (the kernel may still use it), but the host's views end like on any close.
        endViews(Words.toBytes(memory.control()), Words.toBytes(memory.debugLog()));
        LOG.log(System.Logger.Level.WARNING, "the CUDA megakernel ignores SHUTDOWN and abort (every warp is inside a handler that "
            + "never returns); its context and memory stay allocated until the process exits");
        return;
      }
    }
    if (launched) {
      ResidentKernels.exited(device.ordinal());
    }
    if (launched && driver.queryStream(stream) != CudaDriver.CUDA_SUCCESS) {
      // A trap or device fault leaves a sticky error: reset the context so the process can bootstrap again.
      // The reset destroys every allocation (the mapped ones too), but it does not drop this session's retain.
      if (!endViews(Words.toBytes(memory.control()), Words.toBytes(memory.debugLog()))) {
        LOG.log(System.Logger.Level.WARNING, "an operation still holds the faulted CUDA session's memory " + VIEW_PATIENCE.toSeconds()
            + " s after shutdown; its context is not reset (the reset would free that memory under it), so CUDA "
            + "refuses further work in this process");
        return;
      }
      released = true;
      releases.forget();
      context.resetAndRelease();
      return;
    }
    if (!endViews(snapshotControl(), snapshotDebugLog())) {
      LOG.log(System.Logger.Level.WARNING, "an operation still holds the CUDA session's memory (a read into a chunk buffer) "
          + VIEW_PATIENCE.toSeconds() + " s after shutdown; its context and memory stay allocated until the process exits");
      return;
    }
    released = true;
    resources.closeCopiesFirst(releases);
    releases.releaseAll();
  }

  /**
   * Marks the session closed, keeps the buffers' final contents for snapshots, and ends the host
   * views; false when an operation still held one after {@link #VIEW_PATIENCE}, and then the
   * memory must not be freed.
   */
  private boolean endViews(byte[] control, byte[] debugLog) {
    finalControl = control;
    finalDebugLog = debugLog;
    closed = true;
    viewsEnded = true;
    return HostViews.end(views, VIEW_PATIENCE);
  }
}
