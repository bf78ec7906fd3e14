package dev.vyre.scan;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.IdleStrategy;
import dev.vyre.runtime.ThreadEnds;
import dev.vyre.runtime.dfa.DfaStepArgs;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * What copies one {@link ScanLane}'s chunks to the device and publishes their DFA_STEP tasks. When
 * chunks are staged on the device (a GPU), a thread of its own: publishing a chunk writes a slot
 * per task, a thousand on a GPU, besides waiting for its copy, and with one thread doing that for
 * every device besides reading, collecting and passing on hits, that thread bounded a scan over
 * several devices. A chunk scanned in place (the reference backend: 64 tasks a chunk) is published
 * at once in the job's thread instead, which costs less than waking another thread.
 *
 * <p>A chunk handed over ({@link #submit}) is the publisher's until {@link #poll} returns it,
 * published ({@link ChunkSlot#lastTicket}) or with nothing to scan ({@link #NOTHING_PUBLISHED});
 * chunks come back in the order they were handed over, so tickets rise along a lane's chunks as the
 * job's thread collects them. The thread starts with the first chunk, waits for work without
 * spinning when no copy is in flight, and stops when the job closes.
 */
final class LanePublisher implements AutoCloseable {

  /** {@link ChunkSlot#lastTicket} of a chunk that had nothing to scan: the job frees it. */
  static final long NOTHING_PUBLISHED = -1;
  private static final int STOP = -1;

  private final ScanLane lane;
  private final ChunkSlot[] slots;
  private final int tasksPerChunk;
  private final int startState;
  /** Whether chunks are copied and published on a thread of the lane's own, or at once by the caller. */
  private final boolean ownThread;
  private final int[] taskArgs = new int[DfaStepArgs.SLOT_ARGS];
  private final LinkedBlockingQueue<Integer> handedOver = new LinkedBlockingQueue<>();
  private final ConcurrentLinkedQueue<ChunkSlot> done = new ConcurrentLinkedQueue<>();
  /** The thread's own: chunks whose copy is in flight, oldest first (one kernel's copies finish in order). */
  private final ArrayDeque<ChunkSlot> copying = new ArrayDeque<>();
  private final IdleStrategy.Backoff copyWait = IdleStrategy.backoff(64, 192, 20_000, 20_000);
  private Thread thread;
  private volatile RuntimeException failure;
  /** Time the thread spent publishing; written by it alone. */
  private volatile long publishNanos;
  /** Chunks handed over and not yet returned; the job's thread's alone. */
  private int held;

  LanePublisher(ScanLane lane, ChunkSlot[] slots, int tasksPerChunk, int startState, boolean ownThread) {
    this.lane = lane;
    this.slots = slots;
    this.tasksPerChunk = tasksPerChunk;
    this.startState = startState;
    this.ownThread = ownThread;
  }

  /** Hands a chunk over to be copied first ({@code copy}, its read bytes: chunks staged on the device) or published. */
  void submit(ChunkSlot slot, boolean copy) {
    slot.copyFirst = copy;
    held++;
    if (!ownThread) {
      take(slot);
      return;
    }
    handedOver.add(slot.index);
    if (thread == null) {
      thread = Thread.ofPlatform().daemon().name("vyre-scan-lane-" + lane.kernel.device()).start(this::drive);
    }
  }

  /**
   * A chunk the thread has published, or found nothing to scan in; null when none is ready.
   *
   * @throws RuntimeException what the thread failed with (a kernel shut down, a fault in a copy)
   */
  ChunkSlot poll() {
    RuntimeException failed = failure;
    if (failed != null) {
      throw failed;
    }
    ChunkSlot slot = done.poll();
    if (slot != null) {
      held--;
    }
    return slot;
  }

  /** Chunks being copied or published, or published and not yet returned by {@link #poll}. */
  int held() {
    return held;
  }

  long publishNanos() {
    return publishNanos;
  }

  private void drive() {
    try {
      while (true) {
        // With no copy to watch, the thread sleeps until a chunk comes.
        Integer next = copying.isEmpty() ? handedOver.take() : handedOver.poll();
        boolean progress = false;
        for (; next != null; next = handedOver.poll()) {
          if (next == STOP) {
            return;
          }
          take(slots[next]);
          progress = true;
        }
        while (!copying.isEmpty() && lane.kernel.copyFinished(copying.peek().copy)) {
          publish(copying.poll());
          progress = true;
        }
        if (progress) {
          copyWait.reset();
        } else {
          copyWait.idle();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failure = e;
    } catch (Error e) {
      failure = PipelineException.backend("the publishing thread of " + lane.kernel.summary() + " failed: " + e
          + ". Fix: report this bug", e);
    }
  }

  private void take(ChunkSlot slot) {
    if (slot.copyFirst) {
      slot.copy = lane.kernel.startCopy(slot.inputHandle, slot.scanHandle, slot.readEnd());
      copying.add(slot);
    } else {
      publish(slot);
    }
  }

  private void publish(ChunkSlot slot) {
    long started = System.nanoTime();
    if (!lane.publish(slot, taskArgs, tasksPerChunk, startState)) {
      slot.lastTicket = NOTHING_PUBLISHED;
    }
    done.add(slot);
    publishNanos += System.nanoTime() - started;
  }

  /** Stops the thread once it has taken what was handed over, and waits for it. */
  @Override
  public void close() {
    if (thread == null) {
      return;
    }
    handedOver.add(STOP);
    ThreadEnds.await(thread);
    thread = null;
  }
}
