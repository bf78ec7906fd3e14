package dev.vyre.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.error.VyreException;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.WaveGateLayout;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TaskBatchTest {

  @Test
  void tasksAreKeptInTheRingsSlotLayoutWithStaleArgumentsCleared() {
    TaskBatch batch = new TaskBatch(2);
    batch.add(1, Opcodes.STORE_U32, 9, 8, 7, 6, 5, 4, 3, 2, 1, 10, 11, 12);
    batch.clear();
    batch.add3(2, Opcodes.NOP, 1, 2, 3).add(3, Opcodes.ATOMIC_ADD, 5);
    int[] words = batch.priority(Priority.HIGH).slotWords();
    assertArrayEquals(new int[] {SlotLayout.STATUS_PUBLISHED, Opcodes.NOP, 2, Priority.HIGH.level(), 1, 2, 3, 0, 0, 0, 0, 0, 0,
        0, 0, 0}, Arrays.copyOfRange(words, 0, 16), "slot 0: the arguments of the cleared task are gone");
    assertArrayEquals(new int[] {SlotLayout.STATUS_PUBLISHED, Opcodes.ATOMIC_ADD, 3, Priority.HIGH.level(), 5, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0}, Arrays.copyOfRange(words, 16, 32));
  }

  @Test
  void aTaskNoPublisherWouldAcceptIsRefusedWhenAddedAndLeavesTheBatchAsItWas() {
    TaskBatch batch = new TaskBatch(4).add3(0, Opcodes.NOP, 0, 0, 0);
    VyreException badTenant = assertThrows(VyreException.class, () -> batch.add(99, Opcodes.NOP));
    assertEquals(true, badTenant.getMessage().contains("Fix:"), badTenant.getMessage());
    assertThrows(VyreException.class, () -> batch.add(0, 0xFFF5), "a reserved system opcode");
    assertThrows(VyreException.class, () -> batch.add(0, Opcodes.NOP, new int[13]));
    assertEquals(1, batch.size());
    batch.add3(0, Opcodes.NOP, 0, 0, 0).add3(0, Opcodes.NOP, 0, 0, 0).add3(0, Opcodes.NOP, 0, 0, 0);
    PipelineException full = assertThrows(PipelineException.class, () -> batch.add3(0, Opcodes.NOP, 0, 0, 0));
    assertEquals(PipelineException.Variant.QueueFull, full.variant());
  }

  @Test
  void aWaveTaskKeepsItsGateBesideTheLevel() {
    int gate = WaveGateLayout.gate(3, 9);
    TaskBatch batch = new TaskBatch(2).addGated(gate, 1, Opcodes.NOP, new int[] {5, 6, 7}, 1, 2);
    int[] words = batch.priority(Priority.LOW).slotWords();
    assertEquals(gate | Priority.LOW.level(), words[SlotLayout.PRIORITY_WORD], "a new level keeps the gate");
    assertArrayEquals(new int[] {6, 7, 0}, Arrays.copyOfRange(words, SlotLayout.ARG0_WORD, SlotLayout.ARG0_WORD + 3));
    assertThrows(PipelineException.class, () -> batch.addGated(Priority.HIGH.level(), 0, Opcodes.NOP, new int[0], 0, 0),
        "a priority word without a gate");
    assertEquals(1, batch.size());
  }
}
