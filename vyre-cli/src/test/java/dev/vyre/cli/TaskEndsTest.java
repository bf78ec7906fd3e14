package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.KernelException;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.wire.FaultReason;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotStatus;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The order a run's tasks end in, each handed out once. */
class TaskEndsTest {

  private static TaskResult done(int slot) {
    return new TaskResult(slot, slot, Opcodes.NOP, SlotStatus.DONE, FaultReason.NONE, -1);
  }

  @Test
  void handsOutTasksInTheOrderTheyEndedEachOnce() throws InterruptedException {
    TaskEnds ends = new TaskEnds(3);
    CompletableFuture<TaskResult> first = new CompletableFuture<>();
    CompletableFuture<TaskResult> second = new CompletableFuture<>();
    CompletableFuture<TaskResult> third = new CompletableFuture<>();
    ends.watch(0, first);
    ends.watch(1, second);
    ends.watch(2, third);
    assertFalse(ends.await(0), "nothing ended yet");

    TaskResult result = done(5);
    third.complete(result);
    first.completeExceptionally(KernelException.closed("reference"));
    assertTrue(ends.await(0));
    assertEquals(2, ends.take());
    assertSame(result, ends.result(2));
    assertEquals(0, ends.take());
    assertNull(ends.result(0), "its future failed: no result");
    assertEquals(-1, ends.take(), "each once");
    assertFalse(ends.allTaken());

    second.complete(done(6));
    TaskResult[] results = ends.close();
    assertEquals(-1, ends.take(), "closed: a task that ends now counts as one that never finished");
    assertFalse(ends.await(0));
    assertSame(result, results[2]);
    assertNull(results[1], "ended only as the wait gave up, and never taken");
  }
}
