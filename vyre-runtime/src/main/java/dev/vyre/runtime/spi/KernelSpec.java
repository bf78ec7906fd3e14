package dev.vyre.runtime.spi;

import java.util.List;

/**
 * What a backend must build: ring and control sizes, the priority partitions, the user opcodes
 * compiled or registered into the kernel, and how many workers (reference threads) to run.
 *
 * @param slotCount ring slots
 * @param priorityOffsets the six partition offsets of control words 129..134
 * @param tenantCount tenants 0..tenantCount-1 are authorized at start (at most 29)
 * @param observableSlots observable words after the 160 control words
 * @param userOpcodes opcodes beyond the built-ins
 * @param workers worker threads of the reference backend (0: one per spare core); GPU backends size their own grid
 * @param device the device ordinal to run on, or {@link #DEFAULT_DEVICE} for the backend's default (CUDA:
 *     {@code VYRE_CUDA_DEVICE}, else 0)
 */
public record KernelSpec(int slotCount, int[] priorityOffsets, int tenantCount, int observableSlots,
    List<UserOpcode> userOpcodes, int workers, int device) {

  /** No device asked for: the backend picks its default. */
  public static final int DEFAULT_DEVICE = -1;

  /** A spec on the backend's default device. */
  public KernelSpec(int slotCount, int[] priorityOffsets, int tenantCount, int observableSlots,
      List<UserOpcode> userOpcodes, int workers) {
    this(slotCount, priorityOffsets, tenantCount, observableSlots, userOpcodes, workers, DEFAULT_DEVICE);
  }

  public KernelSpec {
    priorityOffsets = priorityOffsets.clone();
    userOpcodes = List.copyOf(userOpcodes);
  }

  @Override
  public int[] priorityOffsets() {
    return priorityOffsets.clone();
  }
}
