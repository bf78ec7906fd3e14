package dev.vyre.policy.workitem;

import static dev.vyre.policy.workitem.TaskLayout.CONTINUATION_DATA_WORD;
import static dev.vyre.policy.workitem.TaskLayout.CONTINUATION_PC_WORD;
import static dev.vyre.policy.workitem.TaskLayout.FLAGS_WORD;
import static dev.vyre.policy.workitem.TaskLayout.FLAG_REQUEUE_REQUESTED;

import dev.vyre.runtime.wire.RingPublisher.WorkItem;

/**
 * One automata or graph frontier item, a state id and the input byte index it was reached at
 * (docs/PORTS.md, "Automata worklist"), carried through the continuation task ABI rather than words
 * of its own.
 *
 * @param stateId automaton state (u32)
 * @param byteIndex input byte index (u32)
 */
public record AutomataStateIndex(int stateId, int byteIndex) {

  /**
   * The Ready task for this pair, encoded as vyre encodes worklist items: param and continuation
   * data hold the state id, the continuation pc the byte index, and REQUEUE_REQUESTED is set, which
   * asks the scheduler to publish the task again.
   */
  public TaskWorkItem toTask(
      int taskId, int tenantId, TaskPriority priority, int opHandle, int inputHandle, int outputHandle) {
    int[] words = TaskWorkItem.fromWorkItem(taskId, tenantId, priority,
        new WorkItem(opHandle, inputHandle, outputHandle, stateId)).toWords();
    words[CONTINUATION_PC_WORD] = byteIndex;
    words[CONTINUATION_DATA_WORD] = stateId;
    words[FLAGS_WORD] |= FLAG_REQUEUE_REQUESTED;
    return TaskWorkItem.fromWords(words);
  }
}
