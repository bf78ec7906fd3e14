package dev.vyre.runtime;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.ring.KernelViews;
import dev.vyre.runtime.ring.RetireStep;
import dev.vyre.runtime.ring.RingPartition;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.DebugLogLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Looking at a running kernel without changing what it does: the host's counters, the kernel's
 * counters and observables, snapshots of the control block and ring, the PRINTF debug log, device
 * traces, and the one-line summary that errors and the watchdog quote.
 */
final class KernelInspection {

  private final KernelSession session;
  private final KernelLifecycle lifecycle;
  private final KernelViews views;
  private final RingPartition[] partitions;
  private final RetireStep retire;
  private final LongAdder quotaRefusals = new LongAdder();

  KernelInspection(KernelSession session, KernelLifecycle lifecycle, KernelViews views, RingPartition[] partitions, RetireStep retire) {
    this.session = session;
    this.lifecycle = lifecycle;
    this.views = views;
    this.partitions = partitions;
    this.retire = retire;
  }

  Megakernel.Stats stats() {
    long published = 0;
    long retired = 0;
    for (RingPartition part : partitions) {
      published += part.committed.getVolatile();
      retired += part.retired.getVolatile();
    }
    return new Megakernel.Stats(published, retired, retire.done(), retire.faults(), retire.waitIo(), retire.verifiedAhead(),
        quotaRefusals.sum());
  }

  /** Counts one publish or allocation a tenant's quota refused. */
  void countQuotaRefusal() {
    quotaRefusals.increment();
  }

  long doneCount() {
    return ControlLayout.readDoneCount(MemorySegment.ofArray(controlSnapshot()));
  }

  long epoch() {
    return ControlLayout.readEpoch(MemorySegment.ofArray(controlSnapshot()));
  }

  long observable(int index) {
    return ControlLayout.readObservable(MemorySegment.ofArray(controlSnapshot()), index);
  }

  byte[] controlSnapshot() {
    ShutdownReport finished = lifecycle.report();
    return finished != null ? finished.finalControl().clone() : session.snapshotControl();
  }

  byte[] ringSnapshot() {
    return views.read(v -> Words.toBytes(v.ring()));
  }

  void ringSnapshot(MemorySegment target) {
    views.read(v -> {
      MemorySegment.copy(v.ring(), 0, target, 0, v.ring().byteSize());
      return null;
    });
  }

  byte[] debugLogSnapshot() {
    lifecycle.checkSession();
    return session.snapshotDebugLog();
  }

  DebugLogLayout.Contents debugLog() {
    return DebugLogLayout.readKept(MemorySegment.ofArray(debugLogSnapshot()));
  }

  DebugLogLayout.Contents clearDebugLog() {
    lifecycle.checkSession();
    retire.retire(true);
    Megakernel.Stats stats = stats();
    if (stats.published() != stats.retired()) {
      throw PipelineException.busy("debug log", (stats.published() - stats.retired())
          + " tasks are still in flight, and a PRINTF among them would write into the log while it is cleared",
          "await or drain the published tasks before clearing the debug log");
    }
    DebugLogLayout.Contents contents = debugLog();
    session.clearDebugLog();
    return contents;
  }

  Map<String, Double> deviceTrace(boolean reset) {
    return session.deviceTrace(reset);
  }

  /**
   * Tasks finished, as two running totals added (the watchdog looks only at whether it moved): the
   * DONE tasks the host retired, and DONE_COUNT. Either can stand still while tasks finish: the host
   * retires in ticket order, behind a task still running, and CUDA's mapped copy of DONE_COUNT lags
   * while the kernel is busy.
   */
  long finishedTotal() {
    return retire.done() + Integer.toUnsignedLong(Words.getAcquire(views.control(), ControlLayout.DONE_COUNT));
  }

  /** Tasks faulted, likewise: the FAULT tasks the host retired plus FAULT_COUNT. */
  long faultTotal() {
    return retire.faults() + Integer.toUnsignedLong(Words.getAcquire(views.control(), ControlLayout.FAULT_COUNT));
  }

  /** Tickets taken and not retired yet. */
  long inFlightCount() {
    long count = 0;
    for (RingPartition part : partitions) {
      count += part.taken() - part.retired.getVolatile();
    }
    return count;
  }

  /** A one-line control-block summary for errors and logs. */
  String summary() {
    // The counters from an exact snapshot: on CUDA the mapped copy of the kernel's counters lags
    // while it is busy (the scout re-syncs it when idle), and a summary explains a failure. The
    // mapped copy when no snapshot can be had (a lost device); the doorbells and claim cursors
    // from it either way (the host writes the one, the scout mirrors the other there).
    MemorySegment snapshot = null;
    try {
      snapshot = MemorySegment.ofArray(controlSnapshot());
    } catch (RuntimeException e) {
      // No snapshot to be had: the mapped copy is all there is.
    }
    MemorySegment exact = snapshot;
    return views.read(v -> summary(exact, v.control()));
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
      long retired = part.retired.getVolatile();
      if (part.taken() != retired) {
        text.append(" ").append(Priority.ofLevel(part.level)).append("[published=").append(part.committed.getVolatile())
            .append(" doorbell=").append(Integer.toUnsignedLong(Words.getAcquire(words, ControlLayout.publishSeqWord(part.level))))
            .append(" claimed=").append(Words.getLongAcquire(words, ControlLayout.claimSeqWord(part.level)))
            .append(" retired=").append(retired).append("]");
      }
    }
    return text.toString();
  }
}
