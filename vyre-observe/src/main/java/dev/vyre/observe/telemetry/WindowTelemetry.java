package dev.vyre.observe.telemetry;

/**
 * One ticketed route window: the slots of one (ticket, opcode) pair, split into required and
 * lookahead slots and counted per status (vyre's {@code WindowTelemetry}). u32 values held as
 * non-negative longs.
 */
public record WindowTelemetry(long ticket, long tenantId, long opcode, long requiredSlots, long lookaheadSlots,
    long published, long claimed, long done, long waitIo, long yieldCount, long requeue, long fault) {

  /** Unfinished: some slot is published, claimed, waiting on IO, yielded or requeued (FAULT and DONE do not count). */
  public boolean isActive() {
    return published > 0 || claimed > 0 || waitIo > 0 || yieldCount > 0 || requeue > 0;
  }
}
