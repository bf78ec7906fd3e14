package dev.vyre.observe.replay;

import dev.vyre.runtime.Task;

/**
 * One entry of a rerun sidecar ({@link RerunSidecarFormat}): the whole task behind the log record
 * at the same index, with its place in the program, so a re-run can publish it again in program
 * order with all of its args.
 *
 * @param taskIndex the task's index in program order, from 0
 * @param timestampNs the record's timestamp_ns, which ties the entry to its record
 */
public record RerunEntry(int taskIndex, long timestampNs, Task task) {

  /**
   * Whether {@code slot} is this task's record: the slot the log keeps for it (its timestamp,
   * tenant, opcode and first four args) is {@code slot}, whatever slot and EPOCH it ran with.
   */
  public boolean describes(RecordedSlot slot) {
    return RecordedSlot.of(timestampNs, slot.slotIdx(), task.tenant(), task.opcode(), task.args(), slot.epoch()).equals(slot);
  }
}
