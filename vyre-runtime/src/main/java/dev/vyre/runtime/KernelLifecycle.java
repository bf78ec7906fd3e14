package dev.vyre.runtime;

import dev.vyre.driver.error.KernelException;
import dev.vyre.runtime.ring.KernelViews;
import dev.vyre.runtime.ring.RetireStep;
import dev.vyre.runtime.ring.RingPartition;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Where a kernel is in its life: open; closed, once shutdown has begun or a failure stopped it (the
 * ring refuses publishes, the retire thread finishes the backlog and ends); shut down, once {@link
 * KernelShutdown} has made its report (the session's memory is gone). Publishers and waiters ask it
 * whether they may go on; a failure found anywhere (the watchdog, a waiter asking the backend)
 * stops the kernel through {@link #fail}.
 */
final class KernelLifecycle {

  private static final VarHandle FAILURE;

  static {
    try {
      FAILURE = MethodHandles.lookup().findVarHandle(KernelLifecycle.class, "failure", KernelException.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final String backendName;
  private final KernelSession session;
  private final RingPartition[] partitions;
  private final RetireStep retire;
  private final KernelViews views;
  private final long stallTimeoutNanos;
  private volatile boolean closed;
  private volatile KernelException failure;
  private volatile ShutdownReport report;

  KernelLifecycle(String backendName, KernelSession session, RingPartition[] partitions, RetireStep retire, KernelViews views,
      long stallTimeoutNanos) {
    this.backendName = backendName;
    this.session = session;
    this.partitions = partitions;
    this.retire = retire;
    this.views = views;
    this.stallTimeoutNanos = stallTimeoutNanos;
  }

  String backendName() {
    return backendName;
  }

  /** Once set (shutdown or a failure), publishes are refused; the retire thread finishes the backlog and ends. */
  boolean isClosed() {
    return closed;
  }

  /** The failure that stopped the kernel, if any. */
  KernelException failure() {
    return failure;
  }

  /** Shutdown's report, once it has made it; null before. */
  ShutdownReport report() {
    return report;
  }

  /** Shutdown made its report: the session's memory is about to be freed. */
  void shutDown(ShutdownReport finished) {
    report = finished;
  }

  /** Fails once shutdown (or a failure) has begun: with the failure, or {@code Closed}. */
  void checkOpen() {
    if (closed) {
      throw closedError();
    }
  }

  /** The session's memory is freed once shutdown has produced its report: its buffers are gone. */
  void checkSession() {
    if (report != null) {
      throw KernelException.closed(backendName);
    }
  }

  /** What an operation on a closed kernel fails with: the failure that stopped it, or {@code Closed}. */
  KernelException closedError() {
    KernelException error = failure;
    return error != null ? error : KernelException.closed(backendName);
  }

  /**
   * What a call whose access to the kernel's memory threw {@code e} fails with: the kernel is shut
   * down when a view ended under it (see {@link KernelViews#afterSwap}), which rethrows anything else.
   */
  KernelException closedByRace(IllegalStateException e) {
    views.afterSwap(e);
    return closedError();
  }

  /**
   * True until the kernel has exited (SHUTDOWN, abort or failure), and false once shutdown has made
   * its report, even when a worker stuck in a handler outlived the abort.
   */
  boolean isKernelRunning() {
    if (failure != null || report != null) {
      return false;
    }
    // A view that ended under the read is read again from the heap copy; the report is made by then.
    return views.read(KernelLifecycle::kernelState, 0) != ControlLayout.KERNEL_STATE_EXITED && report == null;
  }

  private static int kernelState(KernelViews views, int unused) {
    return Words.getVolatile(views.control(), ControlLayout.KERNEL_STATE);
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

  /** Stops the kernel with {@code error}: refuses publishes, aborts the backend and fails every pending future. */
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
   * committed them, doorbell included (up to {@code deadline}): whatever fails futures or frees the
   * ring after this sees all of theirs, and none of them writes the ring or the doorbell after.
   * Between its reservation and its commit a publisher neither blocks nor runs a callback.
   */
  void closeRing(long deadline) {
    // Before the partitions close: a publisher they refuse looks at this next (checkOpen).
    closed = true;
    for (RingPartition part : partitions) {
      part.close();
    }
    IdleStrategy wait = RingPartition.cursorWait();
    for (RingPartition part : partitions) {
      while (!part.allCommitted(views.control()) && System.nanoTime() - deadline < 0) {
        wait.idle();
      }
    }
  }
}
