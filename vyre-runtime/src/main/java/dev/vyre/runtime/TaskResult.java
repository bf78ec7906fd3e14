package dev.vyre.runtime;

import dev.vyre.runtime.wire.FaultReason;
import dev.vyre.runtime.wire.SlotStatus;

/**
 * How a task ended: its final slot status (DONE, FAULT or WAIT_IO), the fault reason when it
 * faulted, and the observable word its opcode writes (LOAD_U32, COMPARE_SWAP, BATCH_FENCE) as read
 * when the host saw the task finish, or -1 when the opcode writes none.
 */
public record TaskResult(long ticket, int slot, int opcode, SlotStatus status, FaultReason fault, long observable) {

  public boolean isDone() {
    return status == SlotStatus.DONE;
  }
}
