package dev.vyre.policy.workitem;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The state/index pair mapping of docs/PORTS.md, "Automata worklist". */
class AutomataStateIndexTest {

  @Test
  void aPairIsAReadyTaskResumingAtItsByteIndex() {
    TaskWorkItem task = new AutomataStateIndex(17, 4096).toTask(5, 3, TaskPriority.High, 99, 12, 13);
    assertEquals(new TaskWorkItem(TaskState.Ready, 99, 3, TaskPriority.High, 12, 13, 17, 4096, 17, 0, 5, 0, 0, 0, 0,
        TaskLayout.FLAG_REQUEUE_REQUESTED), task);
  }
}
