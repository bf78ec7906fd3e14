package dev.vyre.runtime;

import dev.vyre.runtime.wire.SlotStatus;
import java.util.List;

/**
 * What {@link Megakernel#shutdown} found: whether the kernel exited on its own, the final
 * counters, and every slot that was still in flight (published but not finished).
 */
public record ShutdownReport(boolean exitedCleanly, long doneCount, long faultCount, List<InFlight> inFlight,
    byte[] finalControl) {

  /** A task that had not finished when the kernel stopped. */
  public record InFlight(long ticket, int slot, Priority priority, int opcode, SlotStatus status) {}

  public ShutdownReport {
    inFlight = List.copyOf(inFlight);
  }
}
