package dev.vyre.observe.telemetry;

import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;

/**
 * A decoded slot status word (vyre's {@code RingStatus}): one of the eight protocol codes, or
 * {@code Unknown(raw)} for any other value, which telemetry counts separately.
 *
 * @param raw the status word as read (u32 bit pattern); {@link #raw()} is the inverse of decoding
 */
public record RingStatus(int raw) {

  private static final RingStatus[] KNOWN = new RingStatus[SlotLayout.STATUS_FAULT + 1];
  private static final String[] NAMES = {"Empty", "Published", "Claimed", "Done", "WaitIo", "Yield", "Requeue", "Fault"};

  static {
    for (int code = 0; code < KNOWN.length; code++) {
      KNOWN[code] = new RingStatus(code);
    }
  }

  /** The status of a raw word; the eight protocol codes are shared instances. */
  public static RingStatus of(int raw) {
    return raw >= 0 && raw < KNOWN.length ? KNOWN[raw] : new RingStatus(raw);
  }

  /** The protocol status, or {@link SlotStatus#UNKNOWN}. */
  public SlotStatus kind() {
    return SlotStatus.of(raw);
  }

  public boolean isUnknown() {
    return raw < 0 || raw >= KNOWN.length;
  }

  /** In flight for telemetry: PUBLISHED, CLAIMED, WAIT_IO, YIELD or REQUEUE (not DONE, EMPTY, FAULT, unknown). */
  public boolean isActive() {
    return isActiveRaw(raw);
  }

  /** {@link #isActive()} on a raw status word, for allocation-free scans. */
  public static boolean isActiveRaw(int raw) {
    return raw == SlotLayout.STATUS_PUBLISHED || raw == SlotLayout.STATUS_CLAIMED || raw == SlotLayout.STATUS_WAIT_IO
        || raw == SlotLayout.STATUS_YIELD || raw == SlotLayout.STATUS_REQUEUE;
  }

  /** vyre's variant name: {@code Empty}, {@code Published}, ... or {@code Unknown}. */
  public String variantName() {
    return isUnknown() ? "Unknown" : NAMES[raw];
  }

  @Override
  public String toString() {
    return isUnknown() ? "Unknown(" + Integer.toUnsignedString(raw) + ")" : NAMES[raw];
  }
}
