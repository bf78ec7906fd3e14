package dev.vyre.runtime.ring;

import dev.vyre.driver.error.KernelException;
import dev.vyre.runtime.IdleStrategy;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.ExpressLayout;
import dev.vyre.runtime.wire.FaultReason;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The host's retire step (docs/PROTOCOL.md): walks each partition in ticket order, reads each
 * final status (DONE, FAULT, WAIT_IO), completes futures, clears express copies, counts how tasks
 * ended, and moves {@link RingPartition#retired} so publishers may reuse the slots. One thread
 * retires at a time: the retire thread, or a waiter helping so it need not be woken.
 *
 * <p>Under load this one thread limits throughput on a GPU (every task in flight already finished
 * by the kernel, docs/BENCHMARKS.md), so it reads as little as it can: a byte per slot says whether
 * a ticket needs more than counting, and sixteen DONE tickets without such work are checked with
 * independent loads at once. Each status read is a cache miss (the GPU wrote the line), so one
 * core's memory-level parallelism bounds that: publishers waiting for room, which cannot take the
 * turn, verify chunks ahead of it on their own cores ({@link #verifyAhead}), and the turn holder
 * counts a verified chunk without reading its statuses ({@link VerifiedChunks} says why that is
 * safe).
 *
 * <p>Internal: public for {@code dev.vyre.runtime} (and the JMH benchmarks, on the class path);
 * this package is not exported.
 */
public final class RetireStep {

  private static final byte COMPLETE_FUTURE = 1;
  private static final byte CLEAR_EXPRESS = 2;
  private static final byte COUNT_TENANT = 4;
  /** Tickets checked at once when all finished DONE with nothing to do but count (two longs of {@link #work}). */
  static final int BLOCK = 16;
  private static final VarHandle WORK_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int CHUNK = VerifiedChunks.TICKETS;
  /** A thread that waits for the turn: the holder's pass is short. */
  private static final IdleStrategy TURN_WAIT = IdleStrategy.busySpin();

  private final RingPartition[] partitions;
  /** By partition level, the chunks verified ahead of the turn holder. */
  private final VerifiedChunks[] chunks;
  private final CompletableFuture<TaskResult>[] futures;
  /** Per slot, what its retire must do besides counting: {@link #COMPLETE_FUTURE}, {@link #CLEAR_EXPRESS}, {@link #COUNT_TENANT}. */
  private final byte[] work;
  /**
   * Per tenant id, retired tasks that were published counted (registered tenants' tasks). Written
   * only by the thread holding the retire turn; read by any thread.
   */
  private final AtomicLongArray tenantRetired = new AtomicLongArray(ControlLayout.MAX_TENANTS);
  private final AtomicBoolean retiring = new AtomicBoolean();
  /**
   * The thread holding the turn, for that thread's own check only ({@link #retire}): plain,
   * because a thread always sees its own stores, and a stale value from another thread is never
   * the reader itself. A volatile store per pass would sit on every round trip.
   */
  private Thread turnHolder;
  /** Set by {@link #retireLast}, which keeps the turn: nobody may wait for it after. */
  private volatile boolean lastPassTaken;
  /** See {@link #shuttingDown}. */
  private volatile boolean holderShuttingDown;
  /** Futures published and not completed yet. */
  private final AtomicInteger pendingFutures = new AtomicInteger();
  /** The kernel's memory, heap copies once shut down. */
  private final KernelViews views;
  private volatile long done;
  private volatile long faults;
  private volatile long waitIo;
  /** Of the tasks counted above, those in chunks verified ahead ({@link #verifyAhead}). */
  private volatile long verifiedAhead;

  @SuppressWarnings("unchecked")
  public RetireStep(RingPartition[] partitions, int slots, KernelViews views) {
    this.partitions = partitions;
    this.chunks = new VerifiedChunks[partitions.length];
    this.futures = new CompletableFuture[slots];
    this.work = new byte[slots];
    for (RingPartition part : partitions) {
      chunks[part.level] = new VerifiedChunks(part, work);
    }
    this.views = views;
  }

  // ---------------------------------------------------------------- what publishers leave for it

  /** Slot {@code slot}'s next ticket completes {@code future}; call before committing the ticket. */
  public void expectFuture(int slot, CompletableFuture<TaskResult> future) {
    futures[slot] = future;
    work[slot] |= COMPLETE_FUTURE;
    pendingFutures.incrementAndGet();
  }

  /** Slot {@code slot}'s next ticket counts against its tenant when it retires; call before committing the ticket. */
  public void expectTenantCount(int slot) {
    work[slot] |= COUNT_TENANT;
  }

  /** Slot {@code slot}'s next ticket has an express copy to clear; call before writing the copy. */
  public void expectExpressCopy(int slot) {
    work[slot] |= CLEAR_EXPRESS;
  }

  // ---------------------------------------------------------------- retiring

  /**
   * Retires what has finished and returns how many; when another thread is retiring, returns 0
   * at once or, with {@code waitForTurn}, retires after it.
   */
  public int retire(boolean waitForTurn) {
    while (!retiring.compareAndSet(false, true)) {
      // Waiting is pointless for the thread holding the turn (a future's callback inside a pass)
      // and after the last pass, which keeps it (shutdown).
      if (!waitForTurn || lastPassTaken || turnHolder == Thread.currentThread()) {
        return 0;
      }
      TURN_WAIT.idle();
    }
    turnHolder = Thread.currentThread();
    try {
      return retireAvailable();
    } finally {
      turnHolder = null;
      // A future's callback in this pass may have shut the kernel down: then the turn stays taken.
      if (!lastPassTaken) {
        retiring.set(false);
      }
    }
  }

  /**
   * The thread calling this is about to shut the kernel down. When it holds the turn (a future's
   * callback inside its pass), another thread already shutting down must not wait for that turn:
   * this thread waits for that one's lock.
   */
  public void shuttingDown() {
    if (turnHolder == Thread.currentThread()) {
      holderShuttingDown = true;
    }
  }

  /**
   * Retires what has finished for the last time: the turn is kept, so nothing retires after
   * (shutdown). Called inside a pass of this thread (a future's callback shuts the kernel down),
   * it keeps that pass's turn and retires what follows the callback's ticket, and that pass stops
   * after the callback. When the thread holding the turn is shutting down from a callback (see
   * {@link #shuttingDown}), it retires nothing.
   */
  public void retireLast() {
    if (turnHolder != Thread.currentThread()) {
      IdleStrategy wait = RingPartition.cursorWait();
      while (!retiring.compareAndSet(false, true)) {
        if (holderShuttingDown) {
          lastPassTaken = true;
          return;
        }
        wait.idle();
      }
      turnHolder = Thread.currentThread();
    }
    lastPassTaken = true;
    retireAvailable();
  }

  /**
   * Whether slot {@code slot} holds a final status (DONE, FAULT, WAIT_IO). Only meaningful for a
   * ticket not yet retired: the slot is not reused before.
   */
  public boolean finished(int slot) {
    return SlotStatus.of(Words.getAcquire(views.ring(), SlotLayout.statusWord(slot))).isFinal();
  }

  /** Whether a future waits for a retire pass (only the retire thread completes futures nobody awaits). */
  public boolean futuresPending() {
    return pendingFutures.get() > 0;
  }

  /** Whether some committed ticket has not been retired yet. */
  public boolean backlog() {
    for (RingPartition part : partitions) {
      if (part.retired.getVolatile() < part.committed.getVolatile()) {
        return true;
      }
    }
    return false;
  }

  /** Retires every finished task at the head of each partition; returns how many. */
  private int retireAvailable() {
    // Read once per pass: the view is a volatile field, and a local lets the JIT hoist the
    // segment's checks out of the loop.
    MemorySegment slots = views.ring();
    int retired = 0;
    for (RingPartition part : partitions) {
      long first = part.retired.getVolatile();
      long ticket = first;
      // Before any status of this pass: every ticket below it was written before it was committed.
      long committed = part.committed.getVolatile();
      if (ticket >= committed) {
        continue;
      }
      int slot = part.slotOf(ticket);
      int end = part.start + part.length;
      VerifiedChunks verified = chunks[part.level];
      long doneHere = 0;
      long faultsHere = 0;
      long verifiedHere = 0;
      long announced = first;
      // Publishers waiting for room spin on `retired`, so every store of it costs this thread a
      // contended cache line: announce progress every 1/32 of the partition, at most 2,048
      // tickets (docs/BENCHMARKS.md compares the intervals).
      long announceEvery = Math.clamp(part.length / 32, BLOCK, 2048);
      while (ticket < committed) {
        if ((ticket & (CHUNK - 1)) == 0 && committed - ticket >= CHUNK && verified.countUnread(ticket, slots)) {
          // Verified ahead: counted unread (VerifiedChunks says why that is safe). A verified
          // chunk never wraps around the partition's end.
          doneHere += CHUNK;
          verifiedHere += CHUNK;
          ticket += CHUNK;
          slot += CHUNK;
        } else if ((ticket & (BLOCK - 1)) == 0 && committed - ticket >= BLOCK && end - slot >= BLOCK
            && allDoneWithoutWork(slots, slot)) {
          // The common case under load: the status loads are independent, so their cache misses
          // (the GPU wrote those lines) overlap instead of queueing. Blocks start at multiples of
          // BLOCK, so a walk of blocks reaches the start of every chunk.
          doneHere += BLOCK;
          ticket += BLOCK;
          slot += BLOCK;
        } else {
          int status = Words.getAcquire(slots, SlotLayout.statusWord(slot));
          if (status == SlotLayout.STATUS_DONE) {
            doneHere++;
          } else if (status == SlotLayout.STATUS_FAULT) {
            faultsHere++;
          } else if (status != SlotLayout.STATUS_WAIT_IO) {
            break;
          }
          if (work[slot] != 0 && !finishWork(part, ticket, slot, status, slots)) {
            // A future's callback shut the kernel down; its last pass retired what follows.
            count(ticket + 1 - first, doneHere, faultsHere, verifiedHere);
            return retired + (int) (ticket + 1 - first);
          }
          ticket++;
          slot++;
        }
        if (ticket - announced >= announceEvery) {
          part.retired.setVolatile(ticket);
          announced = ticket;
        }
        if (slot == end) {
          slot = part.start;
        }
      }
      if (ticket != first) {
        count(ticket - first, doneHere, faultsHere, verifiedHere);
        part.retired.setVolatile(ticket);
        retired += (int) (ticket - first);
      }
    }
    return retired;
  }

  /**
   * Adds a pass's outcomes in one partition: {@code count} tickets, {@code doneHere} DONE (of them
   * {@code verifiedHere} in chunks verified ahead) and {@code faultsHere} FAULT, the rest WAIT_IO.
   */
  private void count(long count, long doneHere, long faultsHere, long verifiedHere) {
    done += doneHere;
    faults += faultsHere;
    waitIo += count - doneHere - faultsHere;
    if (verifiedHere != 0) {
      verifiedAhead += verifiedHere;
    }
  }

  /** Whether the {@link #BLOCK} slots from {@code slot} all finished DONE and need nothing but counting. */
  private boolean allDoneWithoutWork(MemorySegment slots, int slot) {
    if ((long) WORK_LONGS.get(work, slot) != 0 || (long) WORK_LONGS.get(work, slot + 8) != 0) {
      return false;
    }
    int differ = 0;
    for (int i = 0; i < BLOCK; i++) {
      differ |= Words.getAcquire(slots, SlotLayout.statusWord(slot + i)) ^ SlotLayout.STATUS_DONE;
    }
    return differ == 0;
  }

  /**
   * Verifies one chunk of {@code part} ahead of the thread holding the turn, for a thread that
   * could not take the turn and would otherwise wait (a publisher waiting for room); returns
   * whether it verified one, false when none can be now. See {@link VerifiedChunks}.
   */
  public boolean verifyAhead(RingPartition part) {
    return chunks[part.level].verifyAhead(views.ring());
  }

  /**
   * Does what ticket {@code ticket} needs besides counting; false when its future's callback shut
   * the kernel down ({@code slots}, the ring this pass reads, is freed then), so the pass must stop.
   */
  private boolean finishWork(RingPartition part, long ticket, int slot, int status, MemorySegment slots) {
    byte what = work[slot];
    work[slot] = 0;
    if ((what & COUNT_TENANT) != 0) {
      // Before the future completes: whoever it wakes may ask the tenant for its drains at once.
      // Publishers checked the tenant id (0..28) before writing it; the kernel never rewrites word 2.
      int tenant = Words.get(views.ring(), SlotLayout.slotBase(slot) + SlotLayout.TENANT_WORD);
      tenantRetired.set(tenant, tenantRetired.get(tenant) + 1);
    }
    if ((what & CLEAR_EXPRESS) != 0) {
      // Before the slot can be reused: a stale copy must never carry a later ticket's stamp.
      MemorySegment lane = views.express();
      if (lane.byteSize() != 0) {
        ExpressLayout.clear(lane, slot);
      }
    }
    CompletableFuture<TaskResult> future = futures[slot];
    if (future == null) {
      return true;
    }
    futures[slot] = null;
    pendingFutures.decrementAndGet();
    TaskResult result = resultOf(part.ticketOf(ticket), slot, status);
    // Retired before the callbacks run: whoever the future wakes sees it retired, and a callback
    // that shuts the kernel down starts the last pass after this ticket.
    part.retired.setVolatile(ticket + 1);
    future.complete(result);
    return views.ring() == slots;
  }

  private TaskResult resultOf(long ticket, int slot, int status) {
    MemorySegment slots = views.ring();
    MemorySegment words = views.control();
    long base = SlotLayout.slotBase(slot);
    int opcode = Words.get(slots, base + SlotLayout.OPCODE_WORD);
    FaultReason fault = status == SlotLayout.STATUS_FAULT
        ? FaultReason.of(Words.get(slots, base + SlotLayout.PRIORITY_WORD)) : FaultReason.NONE;
    long observableIndex = switch (opcode) {
      case Opcodes.LOAD_U32 -> Integer.toUnsignedLong(Words.get(slots, SlotLayout.argWord(slot, 1)));
      case Opcodes.COMPARE_SWAP -> Integer.toUnsignedLong(Words.get(slots, SlotLayout.argWord(slot, 0)));
      case Opcodes.BATCH_FENCE -> 0;
      default -> -1;
    };
    // The mirror holds the value this task's own lane stored, which is what the caller asked for.
    long observable = observableIndex >= 0 && observableIndex < ControlLayout.observableCount(words) && status == SlotLayout.STATUS_DONE
        ? Integer.toUnsignedLong(Words.getAcquire(words, ControlLayout.observableWord(observableIndex))) : -1;
    return new TaskResult(ticket, slot, opcode, SlotStatus.of(status), fault, observable);
  }

  // ---------------------------------------------------------------- failing and shutting down

  /** Fails the future of slot {@code slot}, if it has one. */
  public void fail(int slot, KernelException error) {
    CompletableFuture<TaskResult> future = futures[slot];
    if (future != null) {
      futures[slot] = null;
      pendingFutures.decrementAndGet();
      future.completeExceptionally(error);
    }
  }

  /** Fails every future still pending. */
  public void failAll(KernelException error) {
    for (int slot = 0; slot < futures.length; slot++) {
      fail(slot, error);
    }
  }

  /** Retired tasks of {@code tenant} that were published counted. */
  public long tenantRetired(int tenant) {
    return tenantRetired.get(tenant);
  }

  public long done() {
    return done;
  }

  public long faults() {
    return faults;
  }

  public long waitIo() {
    return waitIo;
  }

  public long verifiedAhead() {
    return verifiedAhead;
  }
}
