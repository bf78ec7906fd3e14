package dev.vyre.runtime.wire;

/**
 * The status word of a ring slot (docs/PROTOCOL.md, "Slot status"). Values outside 0..7 are decoded
 * as {@link #UNKNOWN} by telemetry, which keeps the raw word.
 */
public enum SlotStatus {
  EMPTY(0), PUBLISHED(1), CLAIMED(2), DONE(3), WAIT_IO(4), YIELD(5), REQUEUE(6), FAULT(7), UNKNOWN(-1);

  private static final SlotStatus[] BY_CODE = {EMPTY, PUBLISHED, CLAIMED, DONE, WAIT_IO, YIELD, REQUEUE, FAULT};

  private final int code;

  SlotStatus(int code) {
    this.code = code;
  }

  /** The wire value; -1 for {@link #UNKNOWN}. */
  public int code() {
    return code;
  }

  public static SlotStatus of(int word) {
    return word >= 0 && word < BY_CODE.length ? BY_CODE[word] : UNKNOWN;
  }

  /** PUBLISHED, YIELD and REQUEUE slots may be claimed by the kernel. */
  public boolean isSchedulable() {
    return this == PUBLISHED || this == YIELD || this == REQUEUE;
  }

  /** The kernel is finished with the slot: DONE, FAULT, or parked on IO (WAIT_IO). */
  public boolean isFinal() {
    return this == DONE || this == FAULT || this == WAIT_IO;
  }
}
