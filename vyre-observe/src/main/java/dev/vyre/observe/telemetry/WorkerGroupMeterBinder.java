package dev.vyre.observe.telemetry;

import dev.vyre.policy.adapt.WorkerGroupLoop;
import dev.vyre.runtime.Megakernel;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * Micrometer meters of the launch policy's decisions on one kernel (docs/POLICY.md): its worker
 * groups, the ones claiming work now, and the changes the worker-group loop applied, tagged
 * {@code kernel=<backend>}. Like {@link TelemetryMeterBinder}, load it only with micrometer-core on
 * the class path.
 */
public final class WorkerGroupMeterBinder implements MeterBinder {

  private final IntSupplier groups;
  private final IntSupplier active;
  private final LongSupplier changes;
  private final Tags tags;

  public WorkerGroupMeterBinder(String kernel, IntSupplier groups, IntSupplier active, LongSupplier changes, Tag... extraTags) {
    this.groups = groups;
    this.active = active;
    this.changes = changes;
    this.tags = Tags.of("kernel", kernel).and(extraTags);
  }

  /** The meters of {@code kernel} and the loop that decides for it. */
  public static WorkerGroupMeterBinder of(Megakernel kernel, WorkerGroupLoop loop, Tag... extraTags) {
    return new WorkerGroupMeterBinder(kernel.backendName(), kernel::workerGroups, kernel::activeWorkerGroups, loop::changes,
        extraTags);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("vyre.kernel.worker.groups", groups, IntSupplier::getAsInt)
        .description("Worker groups the kernel runs (CUDA blocks, reference threads)").tags(tags).register(registry);
    Gauge.builder("vyre.kernel.worker.groups.active", active, IntSupplier::getAsInt)
        .description("Worker groups the launch policy lets claim work").tags(tags).register(registry);
    FunctionCounter.builder("vyre.policy.worker.group.changes", changes, LongSupplier::getAsLong)
        .description("Changes of the active worker groups the policy's loop applied").tags(tags).register(registry);
  }
}
