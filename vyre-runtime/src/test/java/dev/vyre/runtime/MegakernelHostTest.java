package dev.vyre.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.wire.ExpressLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The host's side of the protocol against a {@link ScriptedBackend}, whose kernel the test plays. */
class MegakernelHostTest {

  /** The first slot of the NORMAL level, which its first ticket uses. */
  private static final int NORMAL_START = 4;

  private static Megakernel bootstrap(ScriptedBackend backend) {
    // Two slots per level, in the order CRITICAL, HIGH, NORMAL, LOW, IDLE.
    return Megakernel.builder().backend(backend).slots(10).priorityOffsets(0, 2, 4, 6, 8, 10).bootstrap();
  }

  @Test
  void drainAfterTheKernelExitedIsFalseWhileALaterLevelHasWorkItNeverRan() throws Exception {
    ScriptedBackend backend = new ScriptedBackend();
    Megakernel kernel = bootstrap(backend);
    CountDownLatch release = new CountDownLatch(1);
    try {
      kernel.publish(0, Priority.NORMAL, Opcodes.NOP);
      kernel.publish(0, Priority.LOW, Opcodes.NOP);
      // Nobody else retires: drain's own pass retires the NORMAL task, which the kernel finished
      // before it exited without running the LOW one.
      backend.session().holdRetireThread(release);
      backend.session().finish(NORMAL_START, SlotLayout.STATUS_DONE);
      backend.session().exit();
      assertFalse(kernel.drain(Duration.ofSeconds(10)), "the LOW task never ran");
    } finally {
      release.countDown();
      kernel.close();
    }
  }

  @Test
  void onlyASmallBatchHasItsFirstTaskCopiedToTheExpressLane() {
    ScriptedBackend backend = new ScriptedBackend();
    int small = RingPublishing.EXPRESS_BATCH_TASKS;
    try (Megakernel kernel = Megakernel.builder().backend(backend).slots(64).priorityOffsets(0, 0, 0, 64, 64, 64)
        .bootstrap()) {
      MemorySegment express = backend.session().memory().express();
      TaskBatch batch = new TaskBatch(small + 1);
      for (int i = 0; i < small; i++) {
        batch.add3(0, Opcodes.NOP, 0, 0, 0);
      }
      int first = kernel.slotOf(kernel.publish(batch));
      assertTrue(ExpressLayout.holdsCopy(express, first), "a batch of " + small + " tasks: its first is in the express lane");
      batch.add3(0, Opcodes.NOP, 0, 0, 0);
      first = kernel.slotOf(kernel.publish(batch));
      assertFalse(ExpressLayout.holdsCopy(express, first), "a batch of " + (small + 1) + " tasks: none is");
    }
  }

  @Test
  void awaitingTheTicketOfAnEmptyBatchReturnsAtOnce() {
    try (Megakernel kernel = bootstrap(new ScriptedBackend())) {
      TaskBatch empty = new TaskBatch(4);
      long first = kernel.publish(empty);
      assertTrue(kernel.await(first, Duration.ofSeconds(10)), "nothing was published, so nothing is left to wait for");
      assertTrue(kernel.await(Megakernel.batchTicket(first, empty.size() - 1), Duration.ofSeconds(10)));
    }
  }
}
