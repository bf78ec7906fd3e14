package dev.vyre.observe.telemetry;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Runtime IO evidence of one resident run (vyre's {@code ResidentRuntimeEvidence}, docs/PORTS.md,
 * "Runtime IO evidence"): device residency, host copies made and avoided, ring occupancy, decode
 * times, and which of those were measured. Bytes and nanoseconds are u64 bit patterns.
 *
 * @param schemaVersion evidence schema, {@link #SCHEMA_VERSION}
 * @param residentDeviceBytes bytes kept resident on the device
 * @param hostCopyBytes bytes copied between host and device
 * @param hostCopyAvoidedBytes bytes residency kept from being copied
 * @param ringOccupancy slot counts per status of the ring snapshot
 * @param controlDecodeNs time to decode the control block
 * @param ringDecodeNs time to decode the ring
 * @param coverage which metric families were measured
 */
public record MegakernelRuntimeEvidence(
    int schemaVersion,
    long residentDeviceBytes,
    long hostCopyBytes,
    long hostCopyAvoidedBytes,
    RingOccupancy ringOccupancy,
    long controlDecodeNs,
    long ringDecodeNs,
    MegakernelRuntimeCoverage coverage) {

  /** The runtime evidence schema. */
  public static final int SCHEMA_VERSION = 1;

  private static final BigInteger BPS = BigInteger.valueOf(10_000);

  public MegakernelRuntimeEvidence {
    Objects.requireNonNull(ringOccupancy, "ringOccupancy");
    Objects.requireNonNull(coverage, "coverage");
  }

  /** Evidence of the current schema with every metric family measured. */
  public static MegakernelRuntimeEvidence of(long residentDeviceBytes, long hostCopyBytes, long hostCopyAvoidedBytes,
      RingOccupancy ringOccupancy, long controlDecodeNs, long ringDecodeNs) {
    return new MegakernelRuntimeEvidence(SCHEMA_VERSION, residentDeviceBytes, hostCopyBytes, hostCopyAvoidedBytes,
        ringOccupancy, controlDecodeNs, ringDecodeNs, MegakernelRuntimeCoverage.FULL);
  }

  /** This evidence with {@code coverage} instead. */
  public MegakernelRuntimeEvidence withCoverage(MegakernelRuntimeCoverage coverage) {
    return new MegakernelRuntimeEvidence(schemaVersion, residentDeviceBytes, hostCopyBytes, hostCopyAvoidedBytes,
        ringOccupancy, controlDecodeNs, ringDecodeNs, coverage);
  }

  /** Labels of the families not measured, in the order ring, control, copy, residency. */
  public List<String> missingMetricFamilies() {
    List<String> missing = new ArrayList<>();
    for (RuntimeMetricFamily family : RuntimeMetricFamily.values()) {
      if (!coverage.covers(family)) {
        missing.add(family.label());
      }
    }
    return missing;
  }

  /** True when the schema is current and every family was measured. */
  public boolean isComplete() {
    return schemaVersion == SCHEMA_VERSION && missingMetricFamilies().isEmpty();
  }

  /**
   * Avoided bytes in basis points of all bytes that would have crossed without residency:
   * {@code avoided * 10000 / (copied + avoided)}, rounded down, 0 when both are 0, so at most
   * 10000. Computed exactly: neither the product nor the sum may wrap at u64.
   */
  public int hostCopyAvoidanceBps() {
    BigInteger avoided = u64(hostCopyAvoidedBytes);
    BigInteger crossing = avoided.add(u64(hostCopyBytes));
    return crossing.signum() == 0 ? 0 : avoided.multiply(BPS).divide(crossing).intValueExact();
  }

  private static BigInteger u64(long bits) {
    return new BigInteger(Long.toUnsignedString(bits));
  }
}
