package dev.vyre.reference;

import dev.vyre.runtime.IdleStrategy;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.OpcodeHandler;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.ExpressLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * One reference kernel worker: the persistent loop of docs/PROTOCOL.md, "Partitions, tickets and
 * doorbells", run by a Java thread.
 *
 * <p>Each iteration checks SHUTDOWN, then scans the priority levels CRITICAL..IDLE (skipping
 * CRITICAL and HIGH once 16 high-priority claims ran in a row, unless nothing else is waiting). In
 * a level it compares the claim cursor with the doorbell, claims a batch of tickets by one CAS on
 * the cursor (its size follows the tasks' cost, {@link #BATCH_TARGET_NANOS}), moves each slot
 * PUBLISHED → CLAIMED by CAS, checks the tenant, executes, adds the batch's counters once and
 * stores the final statuses. A slot its handler finished as YIELD or REQUEUE is kept on a local
 * queue and claimed again (CAS YIELD/REQUEUE → CLAIMED) when no new work is waiting, oldest first.
 * Idle workers spin (at most {@link #SPINNING_WORKERS} of them), then park until a publish wakes
 * one (ReferenceSession.wake).
 */
final class ReferenceWorker implements Runnable {

  /** Most tickets claimed per cursor CAS; counters are added once per batch, as the GPU warp does. */
  private static final int MAX_BATCH = 128;
  /**
   * How long a claimed batch should take to run. A batch has a fixed cost (the cursor CAS, the
   * counters, the cache lines the host's threads share with the worker), so large batches of tiny
   * tasks run much faster than small ones (docs/BENCHMARKS.md compares the sizes). So the claim
   * follows the tasks' measured cost: up to {@link #MAX_BATCH} tiny ones, down to one slow one (a
   * scan chunk), after which the worker looks at the higher priorities again and leaves the rest
   * to other workers.
   */
  private static final long BATCH_TARGET_NANOS = 20_000;
  /**
   * How long an idle worker spins, then yields, by the clock, before it parks (a publish wakes a
   * parked worker); its parks double from the first to the last, a backstop long enough that idle
   * workers cost little (10 ms: 100 wake-ups a second each).
   */
  private static final long SPIN_NANOS = 200_000;
  private static final long YIELD_NANOS = 20_000;
  private static final long FIRST_PARK_NANOS = 20_000;
  private static final long MAX_PARK_NANOS = 10_000_000;
  /**
   * Idle workers that spin; the rest park at once. Every idle worker spinning, they race for each
   * task and for the cores the host's threads need (IdleStrategy has the measurements).
   */
  private static final int SPINNING_WORKERS = 2;
  /** A worker whose continuations all ran again unchanged leaves the core to whoever they wait on. */
  private static final IdleStrategy LEAVE_THE_CORE = IdleStrategy.yielding();

  private final ReferenceSession session;
  private final MemorySegment control;
  private final MemorySegment ring;
  private final MemorySegment express;
  private final int[] expressWords = new int[SlotLayout.SLOT_WORDS];
  private final ReferenceInterpreter interpreter;
  private final int[] partitionStart = new int[ControlLayout.PRIORITY_LEVELS];
  private final int[] partitionLength = new int[ControlLayout.PRIORITY_LEVELS];
  /**
   * The worker's continuations, a circular queue from {@link #pendingHead}: as long as the ring, since
   * a slot is on at most one worker's list at a time, so it never overflows (a bounded list that
   * re-ran its oldest entry when full recursed once per waiting task while they all yielded).
   */
  private final int[] pending;
  private int pendingHead;
  /** Continuations run again since one finished or new work came: a whole round of them yields the CPU. */
  private int unchangedRuns;
  private final int[] batchSlots = new int[MAX_BATCH];
  /** Tickets the next claim may take: grows by doubling after quick batches, shrinks at once after slow ones. */
  private int batchLimit = 32;
  /** The worker's wait while idle: spin, yield, then park (by the clock; see {@link #SPIN_NANOS}). */
  private final IdleStrategy.Backoff idleWait = IdleStrategy.timedBackoff(SPIN_NANOS, YIELD_NANOS, FIRST_PARK_NANOS, MAX_PARK_NANOS);
  /** Counted in the session's idleAwake: idle and polling, not parked. */
  private boolean countedAwake;
  /** Parked (or about to park) while idle: the worker publishers may wake; see ReferenceSession.wake. */
  volatile boolean parked;
  /** The last claim left tickets waiting in its level: another worker may be woken for them. */
  private boolean moreWaiting;
  private final int[] batchStatus = new int[MAX_BATCH];
  private final int[] tenantClaims = new int[ControlLayout.TENANT_FAIRNESS_SLOTS];
  private int pendingCount;
  private int claimedLevel;
  /** Set while the worker claims ({@link #claimWhileActive}), for ReferenceSession.setActiveWorkerGroups. */
  volatile boolean claiming;
  /** Workers at or beyond the session's active count claim nothing new (ReferenceSession.setActiveWorkerGroups). */
  private final int index;

  ReferenceWorker(ReferenceSession session, int index, KernelSpec spec) {
    this.session = session;
    this.index = index;
    this.control = session.memory().control();
    this.ring = session.memory().ring();
    this.express = session.memory().express();
    this.interpreter = new ReferenceInterpreter(session, handlerTable(spec));
    this.pending = new int[Math.max(spec.slotCount(), 1)];
  }

  private static OpcodeHandlers handlerTable(KernelSpec spec) {
    OpcodeHandlers handlers = new OpcodeHandlers();
    for (UserOpcode opcode : spec.userOpcodes()) {
      if (opcode.javaHandler() != null) {
        handlers.put(opcode.opcode(), opcode.javaHandler());
      }
    }
    return handlers;
  }

  @Override
  public void run() {
    try {
      loadPartitions();
      int idleRounds = 0;
      long executed = 0;
      while (!session.aborted && Words.getVolatile(control, ControlLayout.SHUTDOWN) == 0) {
        int claimed = claimWhileActive();
        if (claimed > 0) {
          leaveIdle();
          if (moreWaiting) {
            session.wake();
          }
          long start = System.nanoTime();
          runBatch(claimed);
          fitBatchLimit(claimed, System.nanoTime() - start);
          executed += claimed;
          if ((executed & ~1023L) != ((executed - claimed) & ~1023L)) {
            Words.getAndAdd(control, ControlLayout.HEARTBEAT, 1);
          }
          idleRounds = 0;
          unchangedRuns = 0;
        } else if (pendingCount > 0) {
          leaveIdle();
          int continuation = pending[pendingHead];
          pendingHead = (pendingHead + 1) % pending.length;
          pendingCount--;
          int status = Words.getAcquire(ring, SlotLayout.statusWord(continuation));
          Words.getAndAdd(control, ControlLayout.CONTINUATION_COUNT, 1);
          run(continuation, status);
          idleRounds = 0;
          // Every continuation ran again and yielded: they wait on something else (a read the IO
          // pump serves, another task), which a small machine must leave a core to.
          if (++unchangedRuns >= pendingCount && pendingCount > 0) {
            unchangedRuns = 0;
            LEAVE_THE_CORE.idle();
          }
        } else {
          idle(idleRounds++);
        }
      }
    } catch (Throwable t) {
      // A handler's RuntimeException only faults its slot; anything else ends the kernel, as a trap
      // ends a GPU kernel, and the host hears of it through checkHealth.
      session.workerFailed(t);
    } finally {
      leaveIdle();
      session.workerExited();
    }
  }

  /** The worker has work again (or ends): it no longer counts as idle and awake. */
  private void leaveIdle() {
    if (countedAwake) {
      countedAwake = false;
      session.idleAwake.decrementAndGet();
    }
  }

  private void loadPartitions() {
    for (int p = 0; p < ControlLayout.PRIORITY_LEVELS; p++) {
      int start = Words.getAcquire(control, ControlLayout.PRIORITY_OFFSETS_BASE + p);
      int end = Words.getAcquire(control, ControlLayout.PRIORITY_OFFSETS_BASE + p + 1);
      partitionStart[p] = start;
      partitionLength[p] = end - start;
    }
  }

  /** Sizes the next claim so that it takes about {@link #BATCH_TARGET_NANOS} at the rate this batch of {@code count} ran. */
  private void fitBatchLimit(int count, long nanos) {
    long fit = BATCH_TARGET_NANOS * count / Math.max(nanos, 1);
    batchLimit = (int) Math.clamp(fit, 1, Math.min(MAX_BATCH, 2L * batchLimit));
  }

  /**
   * Claims new work unless the worker was shed meanwhile. It says it is claiming before it looks at
   * the active count again (both volatile), and {@link ReferenceSession#setActiveWorkerGroups} sets
   * the count before it looks for shed workers still claiming: so either this worker sees the new
   * count, or the setter waits for this claim to end, and a shed worker claims nothing published
   * after the shed.
   */
  private int claimWhileActive() {
    claiming = true;
    try {
      return active() ? claim() : 0;
    } finally {
      claiming = false;
    }
  }

  /**
   * Claims up to {@link #batchLimit} consecutive tickets of the highest-priority level with work, with
   * the starvation guard, into {@link #batchSlots}; returns how many (0 when none is waiting).
   */
  private int claim() {
    boolean forceLower = Integer.compareUnsigned(Words.getAcquire(control, ControlLayout.PRIORITY_STARVATION_COUNTER),
        ControlLayout.STARVATION_THRESHOLD) >= 0;
    int count = claimLevels(forceLower ? 2 : 0);
    if (count == 0 && forceLower) {
      // vyre would starve CRITICAL/HIGH here forever if nothing lower is waiting; we let them run.
      count = claimLevels(0);
    }
    if (count > 0) {
      int level = claimedLevel;
      if (level <= 1) {
        Words.getAndAdd(control, ControlLayout.PRIORITY_STARVATION_COUNTER, count);
      } else {
        Words.setRelease(control, ControlLayout.PRIORITY_STARVATION_COUNTER, 0);
      }
      Words.getAndAdd(control, ControlLayout.PRIORITY_FAIRNESS_BASE + level, count);
    }
    return count;
  }

  private int claimLevels(int firstLevel) {
    for (int p = firstLevel; p < ControlLayout.PRIORITY_LEVELS; p++) {
      int length = partitionLength[p];
      if (length <= 0) {
        continue;
      }
      int cursorWord = ControlLayout.claimSeqWord(p);
      while (true) {
        long claimed = Words.getLongAcquire(control, cursorWord);
        int published = Words.getAcquire(control, ControlLayout.publishSeqWord(p));
        // The doorbell is the published count mod 2^32 and never runs more than one ring ahead.
        int waiting = published - (int) claimed;
        if (waiting <= 0) {
          break;
        }
        int count = Math.min(waiting, batchLimit);
        if (Words.compareAndSetLong(control, cursorWord, claimed, claimed + count)) {
          moreWaiting = waiting > count;
          int slot = partitionStart[p] + (int) Long.remainderUnsigned(claimed, length);
          int end = partitionStart[p] + length;
          for (int i = 0; i < count; i++) {
            batchSlots[i] = slot;
            checkExpress(slot, claimed + i);
            if (++slot == end) {
              slot = partitionStart[p];
            }
          }
          claimedLevel = p;
          return count;
        }
      }
    }
    return 0;
  }

  /**
   * A GPU kernel may run a task from its express copy instead of its ring slot, so a copy that
   * carries the ticket's stamp must hold exactly the slot's words (checked here, where a wrong copy
   * is a typed error instead of a silently different task).
   */
  private void checkExpress(int slot, long sequence) {
    // Most tickets are not the first of their publish and have no copy: skip them before the
    // stamp's division.
    if (!ExpressLayout.holdsCopy(express, slot) || !ExpressLayout.read(express, slot, ExpressLayout.stamp(sequence), expressWords)) {
      return;
    }
    long base = SlotLayout.slotBase(slot);
    for (int w = 0; w < SlotLayout.SLOT_WORDS; w++) {
      if (expressWords[w] != Words.get(ring, base + w)) {
        session.protocolViolation = "express copy of slot " + slot + " (ticket " + sequence + ") differs from the ring at word " + w
            + " (" + expressWords[w] + " vs " + Words.get(ring, base + w) + ")";
        return;
      }
    }
  }

  /**
   * Runs a claimed batch the way the GPU kernel does: execute every slot, add the batch's counters
   * once, then store the statuses, so DONE_COUNT never trails a DONE the host can see.
   */
  private void runBatch(int count) {
    int done = 0;
    int faults = 0;
    for (int i = 0; i < count; i++) {
      int slot = batchSlots[i];
      // The host stored PUBLISHED before it rang the doorbell, so this CAS cannot miss it.
      if (!Words.compareAndSet(ring, SlotLayout.statusWord(slot), SlotLayout.STATUS_PUBLISHED, SlotLayout.STATUS_CLAIMED)) {
        batchStatus[i] = -1;
        continue;
      }
      int tenant = Words.get(ring, SlotLayout.slotBase(slot) + SlotLayout.TENANT_WORD);
      tenantClaims[Integer.remainderUnsigned(tenant, ControlLayout.TENANT_FAIRNESS_SLOTS)]++;
      int status = interpreter.execute(slot, true);
      batchStatus[i] = status;
      if (status == SlotLayout.STATUS_DONE) {
        done++;
      } else if (status == SlotLayout.STATUS_FAULT) {
        faults++;
      }
    }
    interpreter.flushMetrics();
    for (int t = 0; t < tenantClaims.length; t++) {
      if (tenantClaims[t] != 0) {
        Words.getAndAdd(control, ControlLayout.TENANT_FAIRNESS_BASE + t, tenantClaims[t]);
        tenantClaims[t] = 0;
      }
    }
    if (done != 0) {
      Words.getAndAdd(control, ControlLayout.DONE_COUNT, done);
    }
    if (faults != 0) {
      Words.getAndAdd(control, ControlLayout.FAULT_COUNT, faults);
    }
    for (int i = 0; i < count; i++) {
      int status = batchStatus[i];
      if (status >= 0) {
        finishStatus(batchSlots[i], status);
      }
    }
  }

  /** Re-claims a continuation (YIELD/REQUEUE → CLAIMED), runs it and stores its final status. */
  private void run(int slot, int claimedFrom) {
    if (!Words.compareAndSet(ring, SlotLayout.statusWord(slot), claimedFrom, SlotLayout.STATUS_CLAIMED)) {
      return;
    }
    int status = interpreter.execute(slot, false);
    interpreter.flushMetrics();
    if (status == SlotLayout.STATUS_DONE) {
      Words.getAndAdd(control, ControlLayout.DONE_COUNT, 1);
    } else if (status == SlotLayout.STATUS_FAULT) {
      Words.getAndAdd(control, ControlLayout.FAULT_COUNT, 1);
    }
    finishStatus(slot, status);
  }

  /** Stores a final status; a YIELD or REQUEUE slot joins the local continuation list. */
  private void finishStatus(int slot, int status) {
    Words.setRelease(ring, SlotLayout.statusWord(slot), status);
    if (status != SlotLayout.STATUS_YIELD && status != SlotLayout.STATUS_REQUEUE) {
      unchangedRuns = 0;
      return;
    }
    pending[(pendingHead + pendingCount++) % pending.length] = slot;
  }

  private boolean active() {
    return index < session.activeWorkers;
  }

  private void idle(int round) {
    boolean active = active();
    if (round == 0) {
      idleWait.reset();
      countedAwake = true;
      if (session.idleAwake.incrementAndGet() > SPINNING_WORKERS) {
        // Enough workers poll already: this one parks at once rather than race them for each task.
        idleWait.skipToParking();
      }
    }
    if (!active) {
      // Shed by the policy: it parks, and never counts as awake, or a publisher would leave the
      // work to it (ReferenceSession.wake).
      leaveIdle();
      idleWait.skipToParking();
    }
    // Spin and yield first: a worker that parks between one-task round trips turns each publish
    // into an unpark (IdleStrategy has the cost).
    if (!idleWait.parking()) {
      idleWait.idle();
      return;
    }
    Words.getAndAdd(control, ControlLayout.HEARTBEAT, 1);
    // Out of idleAwake and into sleepers before the last look at the doorbells (see ReferenceSession.wake).
    parked = true;
    session.sleepers.incrementAndGet();
    leaveIdle();
    try {
      if (!active || !workWaiting()) {
        // A publish wakes a parked worker, SHUTDOWN and abort wake them all; the bounded park is a backstop.
        idleWait.idle();
      }
    } finally {
      session.sleepers.decrementAndGet();
      parked = false;
    }
  }

  private boolean workWaiting() {
    for (int p = 0; p < ControlLayout.PRIORITY_LEVELS; p++) {
      if (partitionLength[p] > 0 && Words.getAcquire(control, ControlLayout.publishSeqWord(p))
          - (int) Words.getLongAcquire(control, ControlLayout.claimSeqWord(p)) > 0) {
        return true;
      }
    }
    return pendingCount > 0;
  }

  /** User opcode handlers: a dense table for the low range, a sorted array for the rest. */
  static final class OpcodeHandlers {
    private static final int DENSE_LIMIT = 0x10000;
    private final OpcodeHandler[] dense = new OpcodeHandler[DENSE_LIMIT];
    private int[] sparseOpcodes = new int[0];
    private OpcodeHandler[] sparseHandlers = new OpcodeHandler[0];

    void put(int opcode, OpcodeHandler handler) {
      if (Integer.compareUnsigned(opcode, DENSE_LIMIT) < 0) {
        dense[opcode] = handler;
        return;
      }
      int at = Arrays.binarySearch(sparseOpcodes, opcode);
      if (at >= 0) {
        sparseHandlers[at] = handler;
        return;
      }
      int insert = -at - 1;
      int[] opcodes = new int[sparseOpcodes.length + 1];
      OpcodeHandler[] handlers = new OpcodeHandler[opcodes.length];
      System.arraycopy(sparseOpcodes, 0, opcodes, 0, insert);
      System.arraycopy(sparseHandlers, 0, handlers, 0, insert);
      opcodes[insert] = opcode;
      handlers[insert] = handler;
      System.arraycopy(sparseOpcodes, insert, opcodes, insert + 1, sparseOpcodes.length - insert);
      System.arraycopy(sparseHandlers, insert, handlers, insert + 1, sparseHandlers.length - insert);
      sparseOpcodes = opcodes;
      sparseHandlers = handlers;
    }

    OpcodeHandler get(int opcode) {
      if (Integer.compareUnsigned(opcode, DENSE_LIMIT) < 0) {
        return dense[opcode];
      }
      int at = Arrays.binarySearch(sparseOpcodes, opcode);
      return at >= 0 ? sparseHandlers[at] : null;
    }
  }
}
