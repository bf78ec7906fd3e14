/**
 * Telemetry of a running megakernel. {@link dev.vyre.observe.telemetry.RingTelemetry} decodes a
 * control block and ring snapshot as vyre does (occupancy, slots, route windows, runtime counters,
 * watchdog, {@code recommend_launch}); {@link dev.vyre.observe.telemetry.TelemetrySampler} takes such
 * snapshots of a live kernel, and {@link dev.vyre.observe.telemetry.TelemetryMeterBinder} publishes them
 * as Micrometer meters. {@link dev.vyre.observe.telemetry.CountMinSketch} and the runtime evidence types
 * are vyre's too (docs/PORTS.md, "Telemetry decoding" and the sections after it).
 */
package dev.vyre.observe.telemetry;
