package dev.vyre.observe.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class TelemetryMeterBinderTest {

  @Test
  void gaugesFollowTheNewestSample() {
    FakeSource source = new FakeSource();
    source.stuck();
    TelemetrySampler sampler = new TelemetrySampler(source);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new TelemetryMeterBinder(sampler, Tag.of("service", "test")).bindTo(registry);
    assertTrue(Double.isNaN(registry.get("vyre.ring.queue.depth").gauge().value()));
    sampler.sample();
    sampler.sample();
    assertEquals(1, registry.get("vyre.ring.queue.depth").tag("kernel", "fake").tag("service", "test").gauge().value());
    assertEquals(4, registry.get("vyre.ring.slots").gauge().value());
    assertEquals(750_000, registry.get("vyre.ring.idle.ppm").gauge().value());
    assertEquals(2500, registry.get("vyre.ring.frontier.density.bps").gauge().value());
    assertEquals(1, registry.get("vyre.kernel.stalled").gauge().value());
    assertEquals(1, registry.get("vyre.kernel.stall.samples").functionCounter().count());
    source.finish();
    source.done(1);
    sampler.sample();
    assertEquals(0, registry.get("vyre.kernel.stalled").gauge().value());
    assertEquals(1, registry.get("vyre.kernel.done").gauge().value());
  }
}
