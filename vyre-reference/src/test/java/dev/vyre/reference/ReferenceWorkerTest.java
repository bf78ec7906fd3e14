package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reference workers with more of them than tasks: idle ones park, a publish wakes one, a worker
 * that claims with more waiting wakes the next, and a SHUTDOWN wakes them all.
 */
class ReferenceWorkerTest {

  private static final int WORKERS = 8;
  /** Longer than a worker's spin and yield (220 µs) before it parks. */
  private static final long PARK_MILLIS = 3;

  @Test
  void burstsPublishedWhileEveryWorkerIsParkedFinishExactlyOnce() throws Exception {
    Random random = new Random(11);
    long expected = 0;
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(1024).singlePriority(Priority.NORMAL)
        .workers(WORKERS).bootstrap()) {
      for (int round = 0; round < 30; round++) {
        Thread.sleep(PARK_MILLIS);
        int tasks = 1 + random.nextInt(600);
        TaskBatch batch = new TaskBatch(tasks);
        for (int i = 0; i < tasks; i++) {
          batch.add3(0, Opcodes.ATOMIC_ADD, 1, ControlLayout.OBSERVABLE_BASE, 0);
        }
        kernel.publish(batch);
        expected += tasks;
        Thread.sleep(PARK_MILLIS);
        kernel.publish(0, Priority.NORMAL, Opcodes.ATOMIC_ADD, 1, ControlLayout.OBSERVABLE_BASE);
        expected++;
        assertTrue(kernel.drain(Duration.ofSeconds(10)), "round " + round + " finished: " + kernel.summary());
      }
      assertEquals(expected, kernel.observable(0), "every task ran once");
    }
  }

  @Test
  void aShutdownOpcodeEndsAKernelWhoseOtherWorkersAreParked() throws Exception {
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(64).workers(WORKERS).bootstrap()) {
      Thread.sleep(PARK_MILLIS);
      kernel.publish(0, Priority.NORMAL, Opcodes.SHUTDOWN);
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (kernel.isKernelRunning() && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      assertFalse(kernel.isKernelRunning(), "every worker left its loop");
    }
  }
}
