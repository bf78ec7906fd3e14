package dev.vyre.policy;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.InputException;
import java.time.Duration;

/**
 * Padded launch geometry for the ring protocol: the workgroup width, the slot count padded to a
 * whole number of workgroups, and the x extent of the dispatch grid (vyre's grid is always
 * {@code [x, 1, 1]}). Values are u32 held in a {@code long}; the width is never zero, as the sizing
 * policy never produces one.
 */
public record MegakernelLaunchGeometry(long workgroupSizeX, long slotCount, long dispatchGridX) {

  public MegakernelLaunchGeometry {
    RangeCheck.u32("workgroup_size_x", workgroupSizeX);
    RangeCheck.u32("slot_count", slotCount);
    RangeCheck.u32("dispatch_grid_x", dispatchGridX);
    if (workgroupSizeX == 0) {
      throw InputException.of("launch policy", "workgroup_size_x must be non-zero",
          "build geometry through MegakernelSizingPolicy, whose widths are at least 1");
    }
  }

  /**
   * vyre's {@code from_item_count}: the standard sizing's geometry for {@code items} slots. The item
   * count is a u64 bit pattern (Rust's usize).
   *
   * @throws BackendException when {@code items} exceeds u32::MAX, or when padding, which saturates
   *     at u32::MAX, would leave fewer slots than items
   */
  public static MegakernelLaunchGeometry fromItemCount(long items, long workers, long maxX) {
    RangeCheck.u32("worker_groups", workers);
    RangeCheck.u32("max_workgroup_size_x", maxX);
    if (!Unsigned.fitsU32(items)) {
      throw BackendException.other("megakernel item count " + Long.toUnsignedString(items)
          + " does not fit in u32 slots. Fix: split the items into batches of at most 4294967295.");
    }
    MegakernelLaunchGeometry geometry = MegakernelSizingPolicy.standard().geometryFromSlots(items, workers, maxX);
    if (geometry.slotCount < items) {
      throw BackendException.other("megakernel padded slot count " + geometry.slotCount + " is below item count " + items
          + " because padding to workgroups of " + geometry.workgroupSizeX + " saturated at u32::MAX. "
          + "Fix: split the items into smaller batches or use a workgroup width that divides the item count.");
    }
    return geometry;
  }

  /** The full dispatch grid, {@code [x, 1, 1]}. */
  public long[] dispatchGrid() {
    return new long[] {dispatchGridX, 1, 1};
  }

  /**
   * Worker groups needed to give every padded slot a lane: {@code slotCount / workgroupSizeX}. This
   * can exceed {@link #dispatchGridX}, which is capped by the worker count and 1024.
   */
  public long coveringWorkerGroups() {
    return slotCount / workgroupSizeX;
  }

  /** vyre's {@code dispatch_config}: a dispatch with this grid and a {@code [workgroupSizeX, 1, 1]} workgroup. */
  public MegakernelDispatchConfig dispatchConfig(Duration timeout) {
    return new MegakernelDispatchConfig(timeout, dispatchGridX, workgroupSizeX);
  }
}
