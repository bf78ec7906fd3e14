package dev.vyre.policy;

/** Adapter limits that bound a megakernel grid; u32 values held in a {@code long}. */
public record MegakernelGridLimits(
    long maxWorkgroupSizeX, long maxComputeWorkgroupsPerDimension, long maxComputeInvocationsPerWorkgroup) {

  public MegakernelGridLimits {
    RangeCheck.u32("max_workgroup_size_x", maxWorkgroupSizeX);
    RangeCheck.u32("max_compute_workgroups_per_dimension", maxComputeWorkgroupsPerDimension);
    RangeCheck.u32("max_compute_invocations_per_workgroup", maxComputeInvocationsPerWorkgroup);
  }
}
