package dev.vyre.observe.telemetry;

/**
 * Reusable working storage for ring decoding (vyre's {@code TelemetryDecodeScratch}): the sorted
 * window-opcode set and the route-window grouping buffers. Keep one per decoding thread and pass it to
 * every {@code *Into} decode so steady-state decoding allocates nothing per slot. Not thread-safe.
 */
public final class TelemetryDecodeScratch {

  final WindowOpcodeMatcher matcher = new WindowOpcodeMatcher();
  final WindowGrouper windows = new WindowGrouper();

  public TelemetryDecodeScratch() {}

  /** Capacity of the window-opcode sort scratch (grows, never shrinks). */
  public int windowOpcodeCapacity() {
    return matcher.scratchCapacity();
  }

  /** Capacity of the route-window grouping buffers in slots (grows, never shrinks). */
  public int windowSlotCapacity() {
    return windows.capacity();
  }

  /** Capacity of the route-window accumulator in windows (grows, never shrinks). */
  public int windowAccumulatorCapacity() {
    return windows.windowCapacity();
  }
}
