package dev.vyre.observe.telemetry;

import dev.vyre.runtime.Megakernel;

/**
 * Where a {@link TelemetrySampler} gets its snapshots: copies of a running kernel's control block
 * and ring, taken without stopping it.
 */
public interface TelemetrySource {

  /** A name for meters, events and logs, e.g. the backend name. */
  String name();

  /** A copy of the control block as it is now. */
  byte[] controlSnapshot();

  /** A copy of the ring as it is now. */
  byte[] ringSnapshot();

  /** A running {@link Megakernel} on any backend. */
  static TelemetrySource of(Megakernel kernel) {
    return new TelemetrySource() {
      @Override
      public String name() {
        return kernel.backendName();
      }

      @Override
      public byte[] controlSnapshot() {
        return kernel.controlSnapshot();
      }

      @Override
      public byte[] ringSnapshot() {
        return kernel.ringSnapshot();
      }
    };
  }
}
