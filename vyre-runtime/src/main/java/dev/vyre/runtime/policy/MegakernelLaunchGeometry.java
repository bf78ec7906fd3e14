package dev.vyre.runtime.policy;

/**
 * Padded launch geometry for the ring protocol: the workgroup width, the slot count padded to a
 * whole number of workgroups, and the x extent of the dispatch grid (vyre's grid is always
 * {@code [x, 1, 1]}). Values are u32 held in a {@code long}.
 */
public record MegakernelLaunchGeometry(long workgroupSizeX, long slotCount, long dispatchGridX) {

  /** The full dispatch grid, {@code [x, 1, 1]}. */
  public long[] dispatchGrid() {
    return new long[] {dispatchGridX, 1, 1};
  }
}
