package dev.vyre.runtime.wire;

/**
 * Why the kernel finished a slot as FAULT. Written into the slot's {@link SlotLayout#PRIORITY_WORD}
 * when the slot faults, identically by every backend.
 */
public enum FaultReason {
  NONE(0, "no fault"),
  CONTROL_INDEX_OUT_OF_RANGE(1, "a control-word index is outside the control buffer"),
  TENANT_UNAUTHORIZED(2, "the slot's tenant mask is zero"),
  UNKNOWN_OPCODE(3, "no handler is registered for the opcode"),
  DEBUG_LOG_FULL(4, "reserved"),
  RESOURCE_OUT_OF_RANGE(5, "a resource handle or byte range is outside the registered resources"),
  HANDLER_FAILED(6, "the opcode handler threw or returned an invalid status"),
  MALFORMED_TABLE(7, "a DFA table resource is malformed or a state is out of range"),
  MALFORMED_PACKED_SLOT(8, "the packed-slot metadata does not fit the 12 argument words"),
  /** A wave task's gate (WaveGateLayout) names no device-memory gate table, or a layer outside it. */
  WAVE_GATE_INVALID(9, "the wave gate names no device-memory gate table or a layer outside it"),
  /** A task of an earlier wave layer did not finish DONE, so this one does not run (docs/WAVES.md). */
  WAVE_PREDECESSOR_FAILED(10, "a task of an earlier wave layer did not finish DONE"),
  /** A task asked for a read larger than its tenant's read quota, which could never admit it (docs/PROTOCOL.md, "Tenant quotas"). */
  TENANT_QUOTA_EXCEEDED(11, "the task asked for a read larger than its tenant's read quota");

  private final int code;
  private final String description;

  FaultReason(int code, String description) {
    this.code = code;
    this.description = description;
  }

  public int code() {
    return code;
  }

  public String description() {
    return description;
  }

  public static FaultReason of(int code) {
    for (FaultReason reason : values()) {
      if (reason.code == code) {
        return reason;
      }
    }
    return HANDLER_FAILED;
  }
}
