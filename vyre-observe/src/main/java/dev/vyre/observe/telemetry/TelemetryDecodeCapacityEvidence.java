package dev.vyre.observe.telemetry;

/**
 * What one decode into caller-owned storage produced and how much storage it had (vyre's telemetry
 * decode capacity evidence, docs/PORTS.md, "Telemetry decoding"): the evidence that steady-state
 * decoding reused storage large enough for what it decoded. Capacities are counted in slots or
 * windows, not words.
 *
 * @param schemaVersion evidence schema, {@link #SCHEMA_VERSION}
 * @param decodedSlotCount slots decoded from the ring
 * @param decodedWindowCount route windows grouped from those slots
 * @param slotOutputCapacity slots the output telemetry can hold without growing
 * @param windowOutputCapacity windows the output telemetry can hold without growing
 * @param windowOpcodeScratchCapacity window opcodes the scratch can sort without growing (0 until an
 *     unsorted or duplicated opcode set needs sorting)
 * @param windowAccumulatorCapacity window slots the scratch can group without growing
 * @param usesCallerOwnedScratch always true: only the {@code *Into} decoders produce evidence
 */
public record TelemetryDecodeCapacityEvidence(
    int schemaVersion,
    long decodedSlotCount,
    long decodedWindowCount,
    long slotOutputCapacity,
    long windowOutputCapacity,
    long windowOpcodeScratchCapacity,
    long windowAccumulatorCapacity,
    boolean usesCallerOwnedScratch) {

  /** vyre's {@code TELEMETRY_DECODE_CAPACITY_SCHEMA_VERSION}. */
  public static final int SCHEMA_VERSION = 1;

  /**
   * True when the schema is current, the scratch was the caller's, and every capacity covers its
   * count: slot output for slots, window output and the window accumulator for windows. The opcode
   * scratch has no decoded count to cover.
   */
  public boolean isComplete() {
    return schemaVersion == SCHEMA_VERSION && usesCallerOwnedScratch && slotOutputCapacity >= decodedSlotCount
        && windowOutputCapacity >= decodedWindowCount && windowAccumulatorCapacity >= decodedWindowCount;
  }
}
