package dev.vyre.policy.workitem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.BackendException;
import org.junit.jupiter.api.Test;

class TaskPriorityTest {

  @Test
  void wordsRunFromCriticalToIdle() {
    assertEquals(0, TaskPriority.Critical.word());
    assertEquals(1, TaskPriority.High.word());
    assertEquals(2, TaskPriority.Normal.word());
    assertEquals(3, TaskPriority.Low.word());
    assertEquals(4, TaskPriority.Idle.word());
    for (TaskPriority priority : TaskPriority.values()) {
      assertSame(priority, TaskPriority.ofWord(priority.word()));
    }
  }

  @Test
  void theDefaultIsNormal() {
    assertSame(TaskPriority.Normal, TaskPriority.DEFAULT);
  }

  @Test
  void unknownWordsAreRefused() {
    BackendException error = assertThrows(BackendException.class, () -> TaskPriority.ofWord(5));
    assertTrue(error.getMessage().contains("unknown priority word 5"), error.getMessage());
    assertTrue(error.getMessage().contains("Fix: "));
    assertTrue(assertThrows(BackendException.class, () -> TaskPriority.ofWord(-2)).getMessage()
        .contains("unknown priority word 4294967294"));
  }
}
