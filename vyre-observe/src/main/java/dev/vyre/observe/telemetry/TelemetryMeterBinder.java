package dev.vyre.observe.telemetry;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.ToDoubleFunction;

/**
 * Micrometer meters over a {@link TelemetrySampler}'s newest sample: queue depth, idle ppm,
 * frontier density, occupancy, fairness, requeue and fault slots, DONE_COUNT, heartbeat and stall
 * state, tagged {@code kernel=<backend>}. Gauges read NaN before the first sample.
 *
 * <p>Micrometer is an optional dependency of vyre-runtime: only this class refers to it, so
 * load it only when micrometer-core is on the class path.
 */
public final class TelemetryMeterBinder implements MeterBinder {

  private final TelemetrySampler sampler;
  private final Tags tags;

  public TelemetryMeterBinder(TelemetrySampler sampler, Tag... extraTags) {
    this.sampler = sampler;
    this.tags = Tags.of("kernel", sampler.name()).and(extraTags);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    counterGauge(registry, "vyre.ring.slots", "Slots in the ring", MegakernelRuntimeCounters::totalSlots);
    counterGauge(registry, "vyre.ring.queue.depth", "Slots neither EMPTY nor DONE", MegakernelRuntimeCounters::queueDepth);
    counterGauge(registry, "vyre.ring.idle.ppm", "EMPTY slots per million", MegakernelRuntimeCounters::gpuIdlePpm);
    counterGauge(registry, "vyre.ring.frontier.density.bps", "Queue depth in basis points of the ring",
        c -> c.frontierDensityBps());
    counterGauge(registry, "vyre.ring.occupancy.bps", "Non-EMPTY slots in basis points of the ring",
        c -> c.occupancyProxyBps());
    counterGauge(registry, "vyre.ring.done.unreclaimed", "DONE slots not yet republished",
        MegakernelRuntimeCounters::unreclaimedDoneSlots);
    counterGauge(registry, "vyre.ring.requeue", "REQUEUE slots", MegakernelRuntimeCounters::requeueSlots);
    counterGauge(registry, "vyre.ring.fault", "FAULT slots", MegakernelRuntimeCounters::faultSlots);
    counterGauge(registry, "vyre.kernel.done", "DONE_COUNT (u32, wraps)", MegakernelRuntimeCounters::drainedSlots);
    counterGauge(registry, "vyre.tenant.fairness.total", "Sum of tenant fairness counters",
        MegakernelRuntimeCounters::tenantFairnessTotal);
    counterGauge(registry, "vyre.tenant.fairness.skew", "Max minus min non-zero tenant fairness counter",
        MegakernelRuntimeCounters::tenantFairnessSkew);
    counterGauge(registry, "vyre.priority.fairness.total", "Sum of priority fairness counters",
        MegakernelRuntimeCounters::priorityFairnessTotal);
    sampleGauge(registry, "vyre.kernel.heartbeat.delta", "HEARTBEAT growth since the previous sample",
        TelemetrySample::heartbeatDelta);
    sampleGauge(registry, "vyre.kernel.stalled", "1 while the watchdog suspects a stall", s -> s.stalled() ? 1 : 0);
    FunctionCounter.builder("vyre.kernel.stall.samples", sampler, TelemetrySampler::totalStalledSamples)
        .description("Samples whose watchdog suspected a stall").tags(tags).register(registry);
  }

  private void counterGauge(MeterRegistry registry, String name, String description,
      ToDoubleFunction<MegakernelRuntimeCounters> value) {
    sampleGauge(registry, name, description, sample -> value.applyAsDouble(sample.counters()));
  }

  private void sampleGauge(MeterRegistry registry, String name, String description, ToDoubleFunction<TelemetrySample> value) {
    Gauge.builder(name, sampler, s -> {
      TelemetrySample sample = s.latest();
      return sample == null ? Double.NaN : value.applyAsDouble(sample);
    }).description(description).tags(tags).register(registry);
  }
}
