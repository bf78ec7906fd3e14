package dev.vyre.bench;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One-task round trips (light: a few groups serve them, and fewer polling warps may shorten them),
 * a burst of tiny tasks from several publishers (saturated: every group is needed), round trips
 * again.
 */
final class RoundTripPhases implements AdaptWorkload {

  private final AdaptBench.Settings settings;
  private final int publishers;

  RoundTripPhases(AdaptBench.Settings settings, int publishers) {
    this.settings = settings;
    this.publishers = publishers;
  }

  @Override
  public String name() {
    return "round_trips";
  }

  @Override
  public Megakernel boot() {
    return Megakernel.builder().backend(settings.backend()).slots(settings.slots()).singlePriority(Priority.NORMAL)
        .publishTimeout(Duration.ofSeconds(60)).bootstrap();
  }

  @Override
  public void warmUp(Megakernel kernel) throws InterruptedException {
    DispatchMeasurements.throughput(kernel, Math.max(1, settings.tasks() / 5), publishers, settings.batch());
  }

  @Override
  public Pass run(Megakernel kernel) throws InterruptedException {
    long start = System.nanoTime();
    double first = DispatchMeasurements.roundTrip(kernel, settings.roundTrips()).p50Micros();
    double burst = DispatchMeasurements.throughput(kernel, settings.tasks(), publishers, settings.batch()).millionsPerSecond();
    double second = DispatchMeasurements.roundTrip(kernel, settings.roundTrips()).p50Micros();
    double seconds = (System.nanoTime() - start) / 1e9;
    Map<String, Double> measures = new LinkedHashMap<>();
    measures.put("round_trip_p50_us", (first + second) / 2);
    measures.put("burst_mtasks_per_s", burst);
    return new Pass(measures, seconds);
  }

  @Override
  public String describe(String measure, double value) {
    return measure.equals("round_trip_p50_us") ? String.format("round trip p50 %.3f us", value)
        : String.format("burst %.1f M tasks/s", value);
  }
}
