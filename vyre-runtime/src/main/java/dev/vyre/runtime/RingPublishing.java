package dev.vyre.runtime;

import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.ring.KernelViews;
import dev.vyre.runtime.ring.RetireStep;
import dev.vyre.runtime.ring.RingPartition;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.wire.ExpressLayout;
import dev.vyre.runtime.wire.RingPublisher;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where a task is published: a publisher reserves consecutive tickets in its priority's partition
 * (waiting for room up to the publish timeout), writes their slots, copies the first to the express
 * lane (unless it begins a large batch), and commits them, which moves the level's doorbell over them
 * in ticket order ({@link RingPartition#commit}) and wakes the backend. The LMAX Disruptor's
 * sequencer, in those terms.
 * Thread-safe for any number of publishers; allocation-free.
 */
final class RingPublishing {

  /**
   * Each publisher thread's wait for room: a {@link IdleStrategy.Backoff} counts its idles, so a
   * thread has its own, made once rather than per wait (a full ring is common under load).
   */
  private static final ThreadLocal<IdleStrategy.Backoff> ROOM_WAIT = ThreadLocal.withInitial(RingPartition::cursorWait);
  /**
   * The most tasks a batch may have for its first to be copied to the express lane. A larger batch
   * keeps the kernel busy well past its first task's read, so the copy saves it nothing, and the
   * copy's stores go to the line an idle kernel polls, each waiting on the GPU's reads of it.
   */
  static final int EXPRESS_BATCH_TASKS = 16;

  private final KernelLifecycle lifecycle;
  private final KernelViews views;
  private final RingPartition[] partitions;
  private final RetireStep retire;
  /** Wakes the backend's kernel after a commit ({@link KernelSession#wake}). */
  private final Runnable wakeKernel;
  private final RetireThread retireThread;
  /**
   * Publishers' time spent waiting for ring room, in all (retiring and verifying ahead meanwhile
   * included) and of that idle: how much of a publisher's time the kernel's pace set.
   */
  private final LongAdder roomWaitNanos = new LongAdder();
  private final LongAdder roomIdleNanos = new LongAdder();
  private final long publishTimeoutNanos;

  RingPublishing(KernelLifecycle lifecycle, KernelViews views, RingPartition[] partitions, RetireStep retire,
      Runnable wakeKernel, RetireThread retireThread, long publishTimeoutNanos) {
    this.lifecycle = lifecycle;
    this.views = views;
    this.partitions = partitions;
    this.retire = retire;
    this.wakeKernel = wakeKernel;
    this.retireThread = retireThread;
    this.publishTimeoutNanos = publishTimeoutNanos;
  }

  /**
   * Publishes one task and returns its public ticket. The arguments are {@code args}, or when it is
   * null {@code arg0..arg2} (the rest 0). {@code future}, when not null, completes with how the
   * task ended; {@code countTenant}: the retire step counts the task against its tenant.
   */
  long publish(int tenant, Priority priority, int opcode, int[] args, int arg0, int arg1, int arg2,
      CompletableFuture<TaskResult> future, boolean countTenant) {
    lifecycle.checkOpen();
    RingPublisher.checkPayload(tenant, opcode, args == null ? 3 : args.length);
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
        RingPublisher.writeSlot(views.ring(), slot, tenant, part.level, opcode, arg0, arg1, arg2);
      } else {
        RingPublisher.writeSlot(views.ring(), slot, tenant, part.level, opcode, args, 0, args.length);
      }
      expressCopy(slot, ticket);
      // Only a future needs the retire thread: a plain publish is retired by whoever awaits, drains
      // or waits for room, and waking a parked thread costs a system call (IdleStrategy says more).
      commit(part, ticket, 1, future != null);
      return part.ticketOf(ticket);
    } catch (IllegalStateException e) {
      throw lifecycle.closedByRace(e);
    }
  }

  /**
   * Publishes a whole batch into consecutive slots of its priority's partition with one doorbell
   * update (its first task copied to the express lane when it is small); returns the first task's
   * ticket, or -1 for an empty batch. {@code countTenant}: the retire step counts each task against
   * its tenant.
   */
  long publish(TaskBatch batch, boolean countTenant) {
    int n = batch.size();
    if (n == 0) {
      return -1;
    }
    lifecycle.checkOpen();
    RingPartition part = partition(batch.priority());
    if (n > part.length) {
      throw PipelineException.invalidArgument("submission", "batch of " + n + " exceeds the " + batch.priority() + " partition of " + part.length + " slots",
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
      if (n <= EXPRESS_BATCH_TASKS) {
        expressCopy(slot, first);
      }
      commit(part, first, n, true);
      return part.ticketOf(first);
    } catch (IllegalStateException e) {
      throw lifecycle.closedByRace(e);
    }
  }

  private void copySlots(int[] words, int fromTask, int slot, int count) {
    if (count > 0) {
      Words.copy(words, fromTask * SlotLayout.SLOT_WORDS, views.ring(), SlotLayout.slotBase(slot), count * SlotLayout.SLOT_WORDS);
    }
  }

  /**
   * Copies the first task of a publish, already in ring slot {@code slot}, to the express lane, so
   * that an idle kernel can take it in the read that finds it (a round trip saves a PCIe read). The
   * ring slot goes first: the kernel stores the task's final status there, after this copy.
   */
  private void expressCopy(int slot, long sequence) {
    MemorySegment lane = views.express();
    if (lane.byteSize() != 0) {
      retire.expectExpressCopy(slot);
      VarHandle.releaseFence();
      ExpressLayout.write(lane, views.ring(), slot, ExpressLayout.stamp(sequence));
    }
  }

  private RingPartition partition(Priority priority) {
    RingPartition part = partitions[priority.level()];
    if (part.length == 0) {
      throw PipelineException.invalidArgument("submission", "the " + priority + " priority partition has no slots",
          "bootstrap with priority offsets that give " + priority + " slots, or publish at another priority");
    }
    return part;
  }

  /** Takes {@code count} consecutive tickets once the ring has room, waiting up to the publish timeout. */
  private long reserve(RingPartition part, int count) {
    long sequence = part.tryReserve(count);
    return sequence >= 0 ? sequence : reserveOnceRoom(part, count);
  }

  /** {@link #reserve} once the ring was found full: the wait is timed ({@link #roomWait}). */
  private long reserveOnceRoom(RingPartition part, int count) {
    long started = System.nanoTime();
    long idle = 0;
    long deadline = 0;
    IdleStrategy.Backoff wait = null;
    try {
      while (true) {
        long sequence = part.tryReserve(count);
        if (sequence >= 0) {
          return sequence;
        }
        lifecycle.checkOpen();
        // The slots come back when their tickets retire; this publisher need not wait for the
        // retire thread to wake (plain publishes do not wake it). While another thread holds the
        // turn, it verifies chunks ahead of that one on its own core (RetireStep.verifyAhead).
        if (retire.retire(false) > 0 || retire.verifyAhead(part)) {
          continue;
        }
        if (!lifecycle.isKernelRunning() && retire.retire(true) == 0) {
          // It exited (a SHUTDOWN opcode, or a fault not reported yet): no slot will come back.
          throw lifecycle.failure() == null && lifecycle.healthy() ? KernelException.closed(lifecycle.backendName()) : lifecycle.failure();
        }
        if (deadline == 0) {
          if (publishTimeoutNanos <= 0) {
            throw queueFull(part);
          }
          deadline = System.nanoTime() + publishTimeoutNanos;
        } else if (System.nanoTime() - deadline > 0) {
          throw queueFull(part);
        }
        if (wait == null) {
          wait = ROOM_WAIT.get();
          wait.reset();
        }
        long idleFrom = System.nanoTime();
        wait.idle();
        idle += System.nanoTime() - idleFrom;
      }
    } finally {
      roomWaitNanos.add(System.nanoTime() - started);
      roomIdleNanos.add(idle);
    }
  }

  /** What publishers have waited for ring room so far, in all and of that idle (nanoseconds). */
  Megakernel.RoomWait roomWait() {
    return new Megakernel.RoomWait(roomWaitNanos.sum(), roomIdleNanos.sum());
  }

  private PipelineException queueFull(RingPartition part) {
    return PipelineException.queueFull("submission",
        "the " + Priority.ofLevel(part.level) + " partition's " + part.length + " slots are all in flight",
        "wait for completions, raise the publish timeout, or bootstrap with more slots");
  }

  /** Commits tickets in order and wakes the backend, and the retire thread if {@code wakeRetire}. */
  private void commit(RingPartition part, long first, int count, boolean wakeRetire) {
    part.commit(views.control(), first, count);
    wakeKernel.run();
    if (wakeRetire) {
      retireThread.wakeIfParked();
    }
  }
}
