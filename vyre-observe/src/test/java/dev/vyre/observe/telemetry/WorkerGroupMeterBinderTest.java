package dev.vyre.observe.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WorkerGroupMeterBinderTest {

  @Test
  void metersFollowTheKernelAndTheLoop() {
    AtomicInteger active = new AtomicInteger(132);
    AtomicLong changes = new AtomicLong();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new WorkerGroupMeterBinder("cuda", () -> 132, active::get, changes::get, Tag.of("service", "test")).bindTo(registry);
    assertEquals(132, registry.get("vyre.kernel.worker.groups").tag("kernel", "cuda").tag("service", "test").gauge().value());
    assertEquals(132, registry.get("vyre.kernel.worker.groups.active").gauge().value());
    active.set(1);
    changes.incrementAndGet();
    assertEquals(1, registry.get("vyre.kernel.worker.groups.active").gauge().value());
    assertEquals(1, registry.get("vyre.policy.worker.group.changes").functionCounter().count());
  }
}
