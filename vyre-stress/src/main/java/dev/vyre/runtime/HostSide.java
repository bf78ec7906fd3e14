package dev.vyre.runtime;

import dev.vyre.runtime.ring.KernelViews;
import dev.vyre.runtime.ring.RetireStep;
import dev.vyre.runtime.ring.RingPartition;
import dev.vyre.runtime.spi.KernelMemory;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.ExpressLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;

/**
 * One kernel's host side, wired as {@link Megakernel} wires it (partitions, retire step, publishing,
 * awaiting) over fresh native memory, for the jcstress tests, whose actors play the kernel as well:
 * the methods below that read or finish slots do what a kernel does, in its order. One partition,
 * at {@link #PRIORITY}, holds every slot, and the publish timeout is 0 (a full ring refuses at once).
 *
 * <p>There is no backend: nothing on the paths the tests take asks one anything (its health, an
 * abort, a snapshot), so the lifecycle and the inspection get none, and the kernel state word says
 * the kernel runs. The retire thread is built but never started: publishers and waiters only
 * signal it, and its passes are what the tests' actors run themselves.
 */
final class HostSide {

  static final Priority PRIORITY = Priority.NORMAL;
  static final int TENANT = 0;

  final MemorySegment control;
  final MemorySegment ring;
  /** The express lane; empty unless asked for (the publishers then copy no task to it). */
  final MemorySegment express;
  final RingPartition part;
  final RetireStep retire;
  final KernelLifecycle lifecycle;
  final RingPublishing publishing;
  final TaskAwaiter awaiter;

  HostSide(int slots, boolean expressLane) {
    Arena arena = Arena.ofAuto();
    MemorySegment none = MemorySegment.ofArray(new long[0]);
    int[] offsets = new int[ControlLayout.PRIORITY_OFFSETS_SLOTS];
    for (int p = PRIORITY.level() + 1; p < offsets.length; p++) {
      offsets[p] = -1;
    }
    offsets = RingPartition.offsets(offsets, slots);
    KernelViews views = KernelViews.bootstrap(new KernelMemory(arena.allocate(ControlLayout.byteLength(1), 64),
        arena.allocate(SlotLayout.ringByteLength(slots), 64), none, none,
        expressLane ? arena.allocate(ExpressLayout.byteLength(slots), 64) : none), 1, offsets);
    control = views.control();
    ring = views.ring();
    express = views.express();
    Words.set(control, ControlLayout.KERNEL_STATE, ControlLayout.KERNEL_STATE_RUNNING);
    RingPartition[] partitions = new RingPartition[ControlLayout.PRIORITY_LEVELS];
    for (int p = 0; p < partitions.length; p++) {
      partitions[p] = new RingPartition(p, offsets[p], offsets[p + 1] - offsets[p]);
    }
    part = partitions[PRIORITY.level()];
    retire = new RetireStep(partitions, slots, views);
    lifecycle = new KernelLifecycle("jcstress", null, partitions, retire, views, 0);
    RetireThread retireThread = new RetireThread(lifecycle, new KernelInspection(null, lifecycle, views, partitions, retire),
        views, retire, 0);
    publishing = new RingPublishing(lifecycle, views, partitions, retire, () -> {}, retireThread, 0);
    awaiter = new TaskAwaiter(lifecycle, views, partitions, retire, retireThread);
  }

  /** Publishes a task of three arguments as {@link Megakernel#publish} and {@link Megakernel#submit} do; its ticket. */
  long publish(int opcode, int arg0, int arg1, int arg2, CompletableFuture<TaskResult> future, boolean countTenant) {
    return publishing.publish(TENANT, PRIORITY, opcode, null, arg0, arg1, arg2, future, countTenant);
  }

  /** The slot of the partition's ticket (sequence number) {@code sequence}. */
  int slotOf(long sequence) {
    return part.slotOf(sequence);
  }

  // ---------------------------------------------------------------- the kernel's side

  /** The partition's doorbell, as the kernel reads it before it claims (acquire). */
  int doorbell() {
    return Words.getAcquire(control, ControlLayout.publishSeqWord(part.level));
  }

  /** Slot {@code slot}'s status, read with acquire. */
  int status(int slot) {
    return Words.getAcquire(ring, SlotLayout.statusWord(slot));
  }

  /**
   * How many of the five words that tell a task apart (opcode, priority, three arguments) slot
   * {@code slot} holds as {@link #publish} writes them, read plainly: 5 once the whole task is there.
   */
  int taskWordsSeen(int slot, int opcode, int arg0, int arg1, int arg2) {
    long base = SlotLayout.slotBase(slot);
    int seen = 0;
    seen += Words.get(ring, base + SlotLayout.OPCODE_WORD) == opcode ? 1 : 0;
    seen += Words.get(ring, base + SlotLayout.PRIORITY_WORD) == PRIORITY.level() ? 1 : 0;
    seen += Words.get(ring, SlotLayout.argWord(slot, 0)) == arg0 ? 1 : 0;
    seen += Words.get(ring, SlotLayout.argWord(slot, 1)) == arg1 ? 1 : 0;
    seen += Words.get(ring, SlotLayout.argWord(slot, 2)) == arg2 ? 1 : 0;
    return seen;
  }

  /** Whether slot {@code slot} is PUBLISHED and holds the whole task (the status first, with acquire). */
  boolean holds(int slot, int opcode, int arg0, int arg1, int arg2) {
    return status(slot) == SlotLayout.STATUS_PUBLISHED && taskWordsSeen(slot, opcode, arg0, arg1, arg2) == 5;
  }

  /** Stores slot {@code slot}'s final status with release, after everything the task wrote. */
  void finish(int slot, int status) {
    Words.setRelease(ring, SlotLayout.statusWord(slot), status);
  }

  /** Runs a LOAD_U32 task as the reference kernel does: its observable (release), then DONE (release). */
  void finishLoad(int slot, int observable, int value) {
    Words.setRelease(control, ControlLayout.observableWord(observable), value);
    finish(slot, SlotLayout.STATUS_DONE);
  }
}
