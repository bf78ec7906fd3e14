package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotStatus;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EpochWatchTest {

  /**
   * Every task that changed EPOCH on the reference kernel was one {@link EpochWatch#mayWriteEpoch}
   * names (which is what makes the cached value exact), and the predicate is not trivially true.
   */
  @Test
  void onlyTasksTheWatchNamesChangeEpoch() throws Exception {
    // Control words a task may touch without breaking the protocol (129..145 are priority offsets
    // and doorbells): metrics, EPOCH, observables.
    int[] targets = {100, 127, 128, 160, 161};
    int[][] copies = {{126, 2}, {126, 3}, {127, 1}, {127, 2}, {128, 1}, {160, 1}, {128, 0}};
    int[] opcodes = {Opcodes.NOP, Opcodes.STORE_U32, Opcodes.ATOMIC_ADD, Opcodes.LOAD_U32, Opcodes.COMPARE_SWAP,
        Opcodes.MEMCPY, Opcodes.BATCH_FENCE, Opcodes.PRINTF};
    Random random = new Random(8);
    int changed = 0;
    int named = 0;
    try (Megakernel kernel = Megakernel.builder().backend("reference").slots(64).observables(256).bootstrap()) {
      for (int i = 0; i < 400; i++) {
        int opcode = opcodes[random.nextInt(opcodes.length)];
        int target = targets[random.nextInt(targets.length)];
        int value = random.nextInt(3);
        Task task = switch (opcode) {
          case Opcodes.STORE_U32 -> Task.of(opcode, value, target);
          case Opcodes.ATOMIC_ADD -> Task.of(opcode, value, target);
          case Opcodes.LOAD_U32 -> Task.of(opcode, target, random.nextInt(4));
          case Opcodes.COMPARE_SWAP -> Task.of(opcode, target, (int) kernel.epoch(), value);
          case Opcodes.MEMCPY -> {
            int[] copy = copies[random.nextInt(copies.length)];
            yield Task.of(opcode, targets[random.nextInt(targets.length)], copy[0], copy[1]);
          }
          default -> Task.of(opcode, value, value);
        };
        long before = kernel.epoch();
        TaskResult result = kernel.submit(task).get(10, TimeUnit.SECONDS);
        assertEquals(SlotStatus.DONE, result.status(), task.toString());
        boolean mayWrite = EpochWatch.mayWriteEpoch(task);
        if (kernel.epoch() != before) {
          changed++;
          assertTrue(mayWrite, task + " changed EPOCH from " + before + " to " + kernel.epoch());
        }
        named += mayWrite ? 1 : 0;
      }
    }
    assertTrue(changed > 20, "EPOCH changed " + changed + " times");
    assertTrue(named < 300, "the watch names " + named + " of 400 tasks");
  }

  @Test
  void readsEpochOnlyWhileAWriterIsInFlightOrAfterOneEnded() {
    AtomicInteger reads = new AtomicInteger();
    EpochWatch watch = new EpochWatch(() -> 10 + reads.getAndIncrement());
    assertEquals(10, watch.beforePublish());
    assertFalse(watch.publishing(Task.of(Opcodes.NOP)));
    assertEquals(10, watch.beforePublish());
    assertEquals(10, watch.beforePublish());
    assertEquals(1, reads.get(), "no writer published: the first read holds");

    assertTrue(watch.publishing(Task.of(Opcodes.BATCH_FENCE, 0, 1)));
    CompletableFuture<TaskResult> fence = new CompletableFuture<>();
    watch.published(fence);
    assertEquals(11, watch.beforePublish());
    assertEquals(12, watch.beforePublish(), "a fence in flight: read every time");
    fence.complete(null);
    assertEquals(13, watch.beforePublish(), "read once after it ended");
    assertEquals(13, watch.beforePublish());

    assertTrue(watch.publishing(Task.of(Opcodes.STORE_U32, 5, 128)));
    watch.published(null);
    assertEquals(13, watch.beforePublish(), "a refused writer changes nothing");
    assertEquals(4, reads.get());
  }
}
