package dev.vyre.runtime;

import dev.vyre.driver.error.KernelException;
import dev.vyre.runtime.ring.KernelViews;
import dev.vyre.runtime.ring.RetireStep;
import dev.vyre.runtime.ring.RingPartition;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The shutdown sequence: refuse publishes, stop the kernel, close the services, retire the last
 * tasks, report what was still in flight, swap the host's views to heap copies, free the session,
 * and fail the futures left. Idempotent, and callable from a future's callback inside a retire pass.
 */
final class KernelShutdown {

  /** The kernel's lock (see Megakernel): one shutdown at a time, and none while a service is made. */
  private final Object lock;
  private final KernelLifecycle lifecycle;
  private final KernelViews views;
  private final KernelSession session;
  private final RingPartition[] partitions;
  private final RetireStep retire;
  private final RetireThread retireThread;
  private final KernelResources resources;

  KernelShutdown(Object lock, KernelLifecycle lifecycle, KernelViews views, KernelSession session, RingPartition[] partitions,
      RetireStep retire, RetireThread retireThread, KernelResources resources) {
    this.lock = lock;
    this.lifecycle = lifecycle;
    this.views = views;
    this.session = session;
    this.partitions = partitions;
    this.retire = retire;
    this.retireThread = retireThread;
    this.resources = resources;
  }

  /** See {@link Megakernel#shutdown}. */
  ShutdownReport shutdown(Duration timeout) {
    retire.shuttingDown();
    synchronized (lock) {
      ShutdownReport report = lifecycle.report();
      if (report != null) {
        return report;
      }
      lifecycle.closeRing(System.nanoTime() + timeout.toNanos());
      Words.setVolatile(views.control(), ControlLayout.SHUTDOWN, 1);
      session.wake();
      boolean exited = session.awaitExit(timeout);
      if (!exited) {
        session.abort();
      }
      resources.closeServices();
      if (!retireThread.isCurrentThread()) {
        // (From a callback on the retire thread, that thread ends once the callback returns.)
        retireThread.join(timeout);
      }
      retire.retireLast();
      report = lifecycle.report();
      if (report != null) {
        // A future's callback in that last pass shut the kernel down already (the lock is reentrant).
        return report;
      }
      List<ShutdownReport.InFlight> inFlight = inFlight();
      byte[] finalControl = session.snapshotControl();
      MemorySegment finalView = MemorySegment.ofArray(finalControl);
      report = new ShutdownReport(exited && lifecycle.failure() == null, ControlLayout.readDoneCount(finalView),
          ControlLayout.readWord(finalView, ControlLayout.FAULT_COUNT), inFlight, finalControl);
      lifecycle.shutDown(report);
      views.swapToHeapCopies();
      session.close();
      // Last: their callbacks find the kernel shut down, and a shutdown in one returns this report.
      KernelException closedError = lifecycle.closedError();
      for (ShutdownReport.InFlight task : inFlight) {
        retire.fail(task.slot(), closedError);
      }
      return report;
    }
  }

  /** Every ticket taken and not retired, with its slot as the kernel left it. */
  private List<ShutdownReport.InFlight> inFlight() {
    MemorySegment ring = views.ring();
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
    return inFlight;
  }
}
