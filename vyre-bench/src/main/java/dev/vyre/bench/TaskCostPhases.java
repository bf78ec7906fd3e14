package dev.vyre.bench;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.SlotLayout;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Task cost that changes by 100x in phases, the same work in each: a burst of cheap tasks (dispatch
 * bound), a hundredth as many tasks a hundred times costlier (compute bound: one group serves them a
 * hundredth as fast as every group), cheap tasks again. A task's cost is a loop of
 * {@code arg0} steps of a 64-bit LCG, the same on both backends.
 */
final class TaskCostPhases implements AdaptWorkload {

  /** The bench's own user opcode. */
  static final int COST_OPCODE = 0x0A00;
  /** How much costlier the costly phase's tasks are. */
  static final int COST_RATIO = 100;

  // The result decides the status, so no compiler drops the loop; 42 never comes out in practice.
  private static final UserOpcode COST = UserOpcode.both(COST_OPCODE, "bench-cost", slot -> {
    long x = slot.arg(1);
    for (int i = 0, steps = slot.arg(0); i < steps; i++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
    }
    return x == 42 ? SlotLayout.STATUS_FAULT : SlotLayout.STATUS_DONE;
  }, """
      unsigned long long x = args[1];
      for (unsigned i = 0; i < args[0]; i++) { x = x * 6364136223846793005ull + 1442695040888963407ull; }
      status = x == 42ull ? VYRE_STATUS_FAULT : VYRE_STATUS_DONE;""");

  private final AdaptBench.Settings settings;
  private final int publishers;

  TaskCostPhases(AdaptBench.Settings settings, int publishers) {
    this.settings = settings;
    this.publishers = publishers;
  }

  @Override
  public String name() {
    return "cost";
  }

  @Override
  public Megakernel boot() {
    return Megakernel.builder().backend(settings.backend()).slots(settings.slots()).singlePriority(Priority.NORMAL)
        .userOpcode(COST).publishTimeout(Duration.ofSeconds(60)).bootstrap();
  }

  @Override
  public void warmUp(Megakernel kernel) throws InterruptedException {
    phase(kernel, Math.max(1, settings.tasks() / 5), settings.costSteps());
    phase(kernel, Math.max(1, settings.tasks() / 5 / COST_RATIO), settings.costSteps() * COST_RATIO);
  }

  @Override
  public Pass run(Megakernel kernel) throws InterruptedException {
    long start = System.nanoTime();
    double cheap = phase(kernel, settings.tasks(), settings.costSteps());
    double costly = phase(kernel, Math.max(1, settings.tasks() / COST_RATIO), settings.costSteps() * COST_RATIO);
    double cheapAgain = phase(kernel, settings.tasks(), settings.costSteps());
    double seconds = (System.nanoTime() - start) / 1e9;
    Map<String, Double> measures = new LinkedHashMap<>();
    measures.put("cheap_mtasks_per_s", (cheap + cheapAgain) / 2);
    measures.put("costly_mtasks_per_s", costly);
    return new Pass(measures, seconds);
  }

  private double phase(Megakernel kernel, long tasks, int steps) throws InterruptedException {
    return DispatchMeasurements.throughput(kernel, tasks, publishers, settings.batch(), (batch, publisher, take) -> {
      for (int i = 0; i < take; i++) {
        batch.add3(0, COST_OPCODE, steps, i, 0);
      }
    }).millionsPerSecond();
  }

  @Override
  public String describe(String measure, double value) {
    return String.format(measure.equals("cheap_mtasks_per_s") ? "cheap %.3f M tasks/s" : "costly %.3f M tasks/s", value);
  }
}
