package dev.vyre.cli;

import dev.vyre.driver.Unsigned;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * EPOCH (control word 128) before each publish of {@code vyre run --record}, exact, without a
 * control snapshot per task: on a GPU a snapshot is a device-to-host copy (the authoritative
 * control words live in device memory), which costs more than the task it would be recorded with.
 * EPOCH changes only through a task that writes word 128, so while no such task is in flight, the
 * value read after the last one ended is still the value now.
 *
 * <p>{@link #beforePublish} and {@link #published} are called by the one publishing thread; a
 * writer's end is counted from whichever thread completes its future.
 */
final class EpochWatch {

  private final LongSupplier exactEpoch;
  /** Published tasks that may write EPOCH and have not ended. */
  private final AtomicInteger writersInFlight = new AtomicInteger();
  /** Such tasks that have ended; counted before {@link #writersInFlight} goes down. */
  private final AtomicLong writersEnded = new AtomicLong();
  /** {@link #writersEnded} when {@link #known} was read with no writer in flight; -1: not valid. */
  private long knownAtEnded = -1;
  private int known;

  /** {@code exactEpoch} reads EPOCH from an exact control snapshot of the running kernel. */
  EpochWatch(LongSupplier exactEpoch) {
    this.exactEpoch = exactEpoch;
  }

  /** EPOCH now, for the record of the task about to be published. */
  int beforePublish() {
    long ended = writersEnded.get();
    // Only this thread publishes, so no writer can join between this read and the exact one.
    boolean settled = writersInFlight.get() == 0;
    if (settled && ended == knownAtEnded) {
      return known;
    }
    known = (int) exactEpoch.getAsLong();
    // Read with a writer in flight, the value may be stale by the time of the next publish.
    knownAtEnded = settled ? ended : -1;
    return known;
  }

  /** Call before publishing {@code task}; returns whether {@link #published} must follow. */
  boolean publishing(Task task) {
    if (!mayWriteEpoch(task)) {
      return false;
    }
    writersInFlight.incrementAndGet();
    return true;
  }

  /** A task {@link #publishing} counted was published with {@code future}, or refused (null). */
  void published(CompletableFuture<TaskResult> future) {
    if (future == null) {
      writersInFlight.decrementAndGet();
      return;
    }
    future.whenComplete((result, error) -> {
      writersEnded.incrementAndGet();
      writersInFlight.decrementAndGet();
    });
  }

  /**
   * Whether {@code task} may write control word {@link ControlLayout#EPOCH} when it runs, by the
   * opcodes' semantics (ReferenceInterpreter): only BATCH_FENCE does by design; a store, add,
   * swap or copy does when its target covers the word; packed slots and user handlers are
   * assumed to.
   */
  static boolean mayWriteEpoch(Task task) {
    int[] args = task.args();
    long epoch = ControlLayout.EPOCH;
    return switch (task.opcode()) {
      case Opcodes.NOP, Opcodes.LOAD_U32, Opcodes.PRINTF, Opcodes.SHUTDOWN, Opcodes.DFA_STEP -> false;
      case Opcodes.STORE_U32, Opcodes.ATOMIC_ADD -> arg(args, 1) == epoch;
      case Opcodes.COMPARE_SWAP -> arg(args, 0) == epoch;
      case Opcodes.MEMCPY -> arg(args, 1) <= epoch && epoch < arg(args, 1) + arg(args, 2);
      default -> true;
    };
  }

  private static long arg(int[] args, int index) {
    return index < args.length ? Unsigned.u32(args[index]) : 0;
  }
}
