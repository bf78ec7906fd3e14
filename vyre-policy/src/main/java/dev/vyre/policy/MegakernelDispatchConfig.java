package dev.vyre.policy;

import java.time.Duration;
import java.util.Objects;

/**
 * The part of vyre's driver {@code DispatchConfig} that a megakernel launch sets: the timeout and
 * the grid and workgroup overrides, both {@code [x, 1, 1]}. Every other dispatch setting keeps the
 * backend's default. u32 values are held in a {@code long}.
 *
 * @param timeout how long the dispatch may run
 * @param gridOverrideX x extent of the grid override
 * @param workgroupOverrideX x extent of the workgroup override
 */
public record MegakernelDispatchConfig(Duration timeout, long gridOverrideX, long workgroupOverrideX) {

  public MegakernelDispatchConfig {
    Objects.requireNonNull(timeout, "timeout");
    RangeCheck.u32("grid_override_x", gridOverrideX);
    RangeCheck.u32("workgroup_override_x", workgroupOverrideX);
  }

  /** The grid override, {@code [x, 1, 1]}. */
  public long[] gridOverride() {
    return new long[] {gridOverrideX, 1, 1};
  }

  /** The workgroup override, {@code [x, 1, 1]}. */
  public long[] workgroupOverride() {
    return new long[] {workgroupOverrideX, 1, 1};
  }
}
