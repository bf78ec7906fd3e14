package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.wire.DebugLogLayout;
import dev.vyre.runtime.wire.DebugLogLayout.DebugRecord;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The PRINTF log of a live kernel: it keeps the first 64 records and counts the rest, and
 * {@link Megakernel#clearDebugLog()} empties it between batches. Backend-neutral:
 * scripts/gpu-check.sh runs it on CUDA too.
 */
class DebugLogTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  @Test
  void aFullLogKeepsItsFirstRecordsAndAClearMakesRoomForTheNextBatch() throws Exception {
    try (Megakernel kernel = Megakernel.builder().backend(TestBackends.selected()).slots(64).bootstrap()) {
      int printfs = DebugLogLayout.RECORD_CAPACITY + 6;
      int[] slotBases = new int[printfs];
      for (int i = 0; i < printfs; i++) {
        // One at a time, so that records are reserved in publishing order.
        TaskResult result = kernel.submit(Task.of(Opcodes.PRINTF, i, 2 * i, 3 * i)).get(10, TimeUnit.SECONDS);
        assertEquals(SlotStatus.DONE, result.status());
        slotBases[i] = result.slot() * SlotLayout.SLOT_WORDS;
      }
      DebugLogLayout.Contents full = kernel.debugLog();
      assertEquals(DebugLogLayout.RECORD_CAPACITY, full.records().size());
      assertEquals(6, full.dropped());
      for (int i = 0; i < DebugLogLayout.RECORD_CAPACITY; i++) {
        assertEquals(new DebugRecord(i, 2 * i, 3 * i, slotBases[i]), full.records().get(i), "record " + i);
      }

      assertEquals(full, kernel.clearDebugLog(), "the clear hands back what the log held");
      assertEquals(new DebugLogLayout.Contents(List.of(), 0), kernel.debugLog());
      TaskResult next = kernel.submit(Task.of(Opcodes.PRINTF, 7, 8, 9)).get(10, TimeUnit.SECONDS);
      assertEquals(new DebugLogLayout.Contents(List.of(new DebugRecord(7, 8, 9, next.slot() * SlotLayout.SLOT_WORDS)), 0),
          kernel.debugLog(), "the next batch's PRINTF is kept, in the first record");
      assertTrue(kernel.drain(TIMEOUT));
    }
  }

  @Test
  void aClearWithATaskInFlightIsRefusedAndKeepsTheLog() throws Exception {
    // A Java opcode holds a task in flight: the reference backend runs those.
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(64)
        .userOpcode(HoldingOpcode.of(0x100, "HOLD", started, release)).bootstrap()) {
      kernel.await(kernel.publish(0, Priority.NORMAL, Opcodes.PRINTF, 1, 2, 3), TIMEOUT);
      long held = kernel.publish(0, Priority.NORMAL, 0x100);
      assertTrue(started.await(10, TimeUnit.SECONDS));
      PipelineException refused = assertThrows(PipelineException.class, kernel::clearDebugLog);
      assertTrue(refused.getMessage().contains("1 tasks are still in flight"), refused.getMessage());
      assertTrue(refused.getMessage().contains("Fix: "), refused.getMessage());
      assertEquals(1, kernel.debugLog().records().size(), "nothing was cleared");
      release.countDown();
      assertTrue(kernel.await(held, TIMEOUT));
      assertEquals(1, kernel.clearDebugLog().records().size());
      assertEquals(0, kernel.debugLog().records().size());
    }
  }
}
