package dev.vyre.runtime.spi;

import java.time.Duration;

/**
 * One running megakernel on a backend. The host writes the initial buffer contents into
 * {@link #memory()}, calls {@link #launch()} once, and from then on only writes slots, doorbells
 * and the SHUTDOWN word: it never launches again.
 */
public interface KernelSession extends AutoCloseable {

  /**
   * The kernel's buffers. They, and every {@link #resource} view, are usable until {@link #close()}
   * frees the memory; close ends them first ({@link HostViews}), so an access after it, or racing
   * it, throws IllegalStateException and never reads freed memory.
   */
  KernelMemory memory();

  /**
   * Allocates a zeroed, kernel-visible resource buffer (input chunks, DFA tables, hit buffers) and
   * returns its handle, which slot arguments name. Handles are dense from 0. A host view starts
   * on a 4096-byte page, so that io_uring can register HOST_MAPPED chunk buffers.
   */
  int allocateResource(long byteSize, ResourcePlacement placement);

  /**
   * The host view of a resource: always on the reference backend, for HOST_MAPPED resources on
   * CUDA; null for an unknown handle or a DEVICE resource on a GPU.
   */
  java.lang.foreign.MemorySegment resource(int handle);

  /** Copies {@code source} into the resource at {@code offset}; complete when this returns. */
  void writeResource(int handle, long offset, java.lang.foreign.MemorySegment source);

  /** Copies {@code target.byteSize()} bytes of the resource at {@code offset} into {@code target}. */
  void readResource(int handle, long offset, java.lang.foreign.MemorySegment target);

  /**
   * Starts copying {@code bytes} from the start of resource {@code from}, which has a host view, to
   * the start of resource {@code to}, and returns a copy number for {@link #copyFinished}. A GPU
   * backend runs it on its copy engine while the caller goes on; this default copies at once.
   * Copies finish in the order they were started; the source must not change until then.
   */
  default long startCopy(int from, int to, long bytes) {
    java.lang.foreign.MemorySegment source = resource(from);
    if (source == null) {
      throw dev.vyre.driver.error.PipelineException.invalidArgument("resource", "resource " + from + " has no host view",
          "copy from a HOST_MAPPED resource");
    }
    writeResource(to, 0, source.asSlice(0, bytes));
    return 0;
  }

  /** The ordinal of the device this kernel runs on ({@link KernelSpec#device()} resolved); 0 on a backend of one device. */
  default int device() {
    return 0;
  }

  /**
   * Backend-specific timings of the device side of a task (a GPU backend built for tracing), by
   * name; empty when the backend has none. {@code reset} starts a new measurement.
   */
  default java.util.Map<String, Double> deviceTrace(boolean reset) {
    return java.util.Map.of();
  }

  /**
   * Promotes DFA table {@code tableHandle}: from the next DFA_STEP task on, the kernel's tasks that
   * name the table scan with {@code compact}, its {@link dev.vyre.runtime.dfa.PromotedDfaLayout}
   * form, kept close to the workers (GPU shared memory, Java arrays), with results identical to the
   * interpreter's. The kernel checks, once, that {@code compact} is the promoted form of the table at
   * the handle: here, or in {@link #checkDfaPromotion}, which the runtime calls first, letting no write
   * into the resource land between the two. A promotion lasts until {@link #demoteDfaTable}; the host
   * demotes a table before it writes the resource again (docs/POLICY.md, "Promotion"). This default
   * refuses: a backend without a promoted DFA_STEP.
   *
   * @throws dev.vyre.driver.error.NotImplementedException on a backend that cannot promote yet
   * @throws dev.vyre.driver.error.ProtocolException when {@code compact} is not the table's promoted form
   */
  default void promoteDfaTable(int tableHandle, java.lang.foreign.MemorySegment compact) {
    throw dev.vyre.driver.error.NotImplementedException.of("DFA table promotion on the " + describe(), 23,
        "promote on the reference backend (--backend reference), or scan without promotion");
  }

  /**
   * Checks that {@code compact} is the promoted form of the table at {@code tableHandle} without
   * promoting it, while the host's writes into other resources go on: a backend whose check reads the
   * table back does it here, so that {@link #promoteDfaTable} only switches and holds up no write for
   * long. This default leaves the check to {@link #promoteDfaTable}.
   *
   * @throws dev.vyre.driver.error.ProtocolException when {@code compact} is not the table's promoted form
   */
  default void checkDfaPromotion(int tableHandle, java.lang.foreign.MemorySegment compact) {}

  /**
   * Ends the promotion of {@code tableHandle}: DFA_STEP tasks read the table's resource again from
   * the next task on. Nothing to do for a table that is not promoted (this default: a backend that
   * never promotes).
   */
  default void demoteDfaTable(int tableHandle) {}

  /**
   * Whether this backend scans a promoted table faster than the interpreter does, so that the runtime should
   * promote hot tables on its own (docs/POLICY.md, "Promotion"). A backend may promote correctly and still
   * answer false: the reference backend's Java arrays measured no faster than its table reads.
   */
  default boolean promotedDfaIsFaster() {
    return false;
  }

  /** DFA_STEP tasks scanned with a promoted table so far (0 on a backend that never promotes). */
  default long promotedTasks() {
    return 0;
  }

  /** Whether the copy {@link #startCopy} numbered {@code copy} has finished. */
  default boolean copyFinished(long copy) {
    return true;
  }

  /**
   * An exact copy of the control block as the kernel sees it now. The host-mapped
   * {@link KernelMemory#control()} may lag for words the kernel changes (CUDA keeps those in
   * device memory and mirrors them); this does not. After {@link #close()}, the block as close left it.
   */
  byte[] snapshotControl();

  /** An exact copy of the PRINTF debug log as the kernel sees it now; after {@link #close()}, as close left it. */
  byte[] snapshotDebugLog();

  /**
   * Empties the PRINTF debug log (cursor and records to zero) and returns once the kernel sees it
   * empty. The caller makes sure that no PRINTF is in flight: one running meanwhile may lose its
   * record or write it over the cleared log's first.
   */
  void clearDebugLog();

  /** Starts the persistent kernel over the initialized memory. */
  void launch();

  /** A hint that new work was published; a backend whose workers sleep when idle wakes them. */
  void wake();

  /** Waits for the kernel to exit after SHUTDOWN was set; true when it did within the timeout. */
  boolean awaitExit(Duration timeout);

  /**
   * Tears the kernel down without its cooperation (after a stall); the memory stays readable
   * until {@link #close()}.
   */
  void abort();

  /** Throws a {@link dev.vyre.driver.error.KernelException} if the device reported a fault. */
  void checkHealth();

  /** The worker groups the kernel runs: CUDA blocks, reference worker threads. */
  int workerGroups();

  /** Lanes (threads) in each worker group: 256 on CUDA, one on the reference backend. */
  int lanesPerWorkerGroup();

  /**
   * Lets the first {@code active} worker groups (1..{@link #workerGroups()}) claim new work; the
   * others finish what they hold and idle until raised again. The launch policy sheds groups under
   * light load and wakes them under pressure (docs/POLICY.md); every group is active at launch.
   */
  void setActiveWorkerGroups(int active);

  /** Whether starting this kernel compiled its code (a GPU backend's pipeline-cache miss): a start seconds slower than the usual one. */
  boolean compiledAtStart();

  /** One line for logs and {@code vyre doctor}: backend, device, geometry. */
  String describe();

  /**
   * Ends the host views ({@link #memory()}, {@link #resource}) and then frees the memory; the
   * kernel must have exited or been aborted. Later resource calls fail with a {@code Closed}
   * {@link dev.vyre.driver.error.KernelException}.
   */
  @Override
  void close();
}
