package dev.vyre.runtime;

import dev.vyre.runtime.wire.SlotStatus;
import java.util.List;

/**
 * What {@link Megakernel#shutdown} found: whether the kernel exited on its own, the final
 * counters, and every slot that was still in flight (published but not finished).
 */
public record ShutdownReport(boolean exitedCleanly, long doneCount, long faultCount, List<InFlight> inFlight,
    byte[] finalControl) {

  /**
   * A task that had not finished when the kernel stopped, and {@code task}, the task itself as the
   * ring holds it (all 12 argument words; a continuation's arguments as its last run left them), so
   * that nothing is lost when a kernel fails: {@code next.submit(inFlight.task())} on a new kernel
   * runs it again. A CLAIMED task may have run in part, so a task resubmitted this way runs at least
   * once, not exactly once.
   */
  public record InFlight(long ticket, int slot, SlotStatus status, Task task) {

    public Priority priority() {
      return task.priority();
    }

    public int opcode() {
      return task.opcode();
    }
  }

  public ShutdownReport {
    inFlight = List.copyOf(inFlight);
  }
}
