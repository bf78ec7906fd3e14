package dev.vyre.policy.workitem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.ProtocolException;
import dev.vyre.runtime.wire.SlotLayout;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The task item layout of docs/PORTS.md, "Continuation tasks". */
class TaskLayoutTest {

  @Test
  void aTaskIsOneRingSlot() {
    assertEquals(16, TaskLayout.TASK_WORDS);
    assertEquals(64, TaskLayout.TASK_BYTES);
    assertEquals(SlotLayout.SLOT_BYTES, TaskLayout.TASK_BYTES);
  }

  @Test
  void theFirstFourWordsMirrorTheSlotHeader() {
    assertEquals(SlotLayout.STATUS_WORD, TaskLayout.STATE_WORD);
    assertEquals(SlotLayout.OPCODE_WORD, TaskLayout.OP_HANDLE_WORD);
    assertEquals(SlotLayout.TENANT_WORD, TaskLayout.TENANT_WORD);
    assertEquals(SlotLayout.PRIORITY_WORD, TaskLayout.PRIORITY_WORD);
  }

  @Test
  void wordsAreInSpecOrder() {
    assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, new int[] {
        TaskLayout.STATE_WORD, TaskLayout.OP_HANDLE_WORD, TaskLayout.TENANT_WORD, TaskLayout.PRIORITY_WORD,
        TaskLayout.INPUT_HANDLE_WORD, TaskLayout.OUTPUT_HANDLE_WORD, TaskLayout.PARAM_WORD,
        TaskLayout.CONTINUATION_PC_WORD, TaskLayout.CONTINUATION_DATA_WORD, TaskLayout.RESUME_EPOCH_WORD,
        TaskLayout.TASK_ID_WORD, TaskLayout.PARENT_TASK_ID_WORD, TaskLayout.AGE_TICKS_WORD,
        TaskLayout.REQUEUE_COUNT_WORD, TaskLayout.YIELD_COUNT_WORD, TaskLayout.FLAGS_WORD});
  }

  @Test
  void flagBits() {
    assertEquals(1, TaskLayout.FLAG_PAUSED);
    assertEquals(2, TaskLayout.FLAG_YIELDED);
    assertEquals(4, TaskLayout.FLAG_REQUEUE_REQUESTED);
    assertEquals(8, TaskLayout.FLAG_RESUME_READY);
  }

  @Test
  void offsets() {
    assertEquals(0, TaskLayout.byteLength(0));
    assertEquals(192, TaskLayout.byteLength(3));
    assertEquals(2 * 16 + 13, TaskLayout.word(2, TaskLayout.REQUEUE_COUNT_WORD));
  }

  @Test
  void checkTaskRefusesSlotsOutsideTheRing() {
    MemorySegment ring = MemorySegment.ofArray(new byte[2 * 64 + 60]);
    assertDoesNotThrow(() -> TaskLayout.checkTask(ring, 0));
    assertDoesNotThrow(() -> TaskLayout.checkTask(ring, 1));
    ProtocolException partial = assertThrows(ProtocolException.class, () -> TaskLayout.checkTask(ring, 2));
    assertEquals(ProtocolException.Variant.MissingWord, partial.variant());
    assertTrue(partial.getMessage().contains("task ring is missing word 47 (byte length 188)"), partial.getMessage());
    assertTrue(partial.getMessage().contains("Fix: "));
    assertThrows(ProtocolException.class, () -> TaskLayout.checkTask(ring, -1));
  }
}
