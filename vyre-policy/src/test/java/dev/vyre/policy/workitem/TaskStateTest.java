package dev.vyre.policy.workitem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.BackendException;
import dev.vyre.runtime.wire.SlotLayout;
import java.util.EnumSet;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class TaskStateTest {

  @Test
  void wordsAreTheRingStatusNumbers() {
    assertEquals(SlotLayout.STATUS_EMPTY, TaskState.Empty.word());
    assertEquals(1, TaskState.Ready.word());
    assertEquals(2, TaskState.Running.word());
    assertEquals(SlotLayout.STATUS_DONE, TaskState.Done.word());
    assertEquals(4, TaskState.Paused.word());
    assertEquals(SlotLayout.STATUS_YIELD, TaskState.Yielded.word());
    assertEquals(SlotLayout.STATUS_REQUEUE, TaskState.Requeued.word());
    assertEquals(SlotLayout.STATUS_FAULT, TaskState.Faulted.word());
  }

  @Test
  void readyYieldedAndRequeuedAreSchedulable() {
    for (TaskState state : TaskState.values()) {
      assertEquals(EnumSet.of(TaskState.Ready, TaskState.Yielded, TaskState.Requeued).contains(state),
          state.schedulable(), state.name());
    }
  }

  @Test
  void emptyDoneAndFaultedAreFinal() {
    for (TaskState state : TaskState.values()) {
      assertEquals(!EnumSet.of(TaskState.Empty, TaskState.Done, TaskState.Faulted).contains(state),
          state.transitionable(), state.name());
    }
  }

  @Test
  void unknownWordsAreRefused() {
    assertEquals(Optional.empty(), TaskState.fromWord(8));
    assertEquals(Optional.empty(), TaskState.fromWord(-1));
    BackendException error = assertThrows(BackendException.class, () -> TaskState.ofWord(99));
    assertEquals("megakernel task slot has unknown state word 99. "
        + "Fix: write a valid TaskState ABI word before publishing the slot.", error.getMessage());
    assertTrue(assertThrows(BackendException.class, () -> TaskState.ofWord(-1)).getMessage()
        .contains("unknown state word 4294967295"));
  }

  @Property
  void decodingIsTheInverseOfWord(@ForAll TaskState state) {
    assertSame(state, TaskState.ofWord(state.word()));
    assertEquals(Optional.of(state), TaskState.fromWord(state.word()));
  }
}
