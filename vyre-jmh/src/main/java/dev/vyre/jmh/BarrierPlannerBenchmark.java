package dev.vyre.jmh;

import dev.vyre.driver.planner.MegakernelBarrierPlan;
import dev.vyre.driver.planner.MegakernelBarrierPlanner;
import dev.vyre.driver.planner.MegakernelBarrierScratch;
import dev.vyre.driver.planner.MegakernelWaveDependencies;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Barrier planning of 1,000,000 waves and about 1,000,000 dependencies with a reused scratch
 * (docs/ANCHORS.md, "Goals": at most 150 ms, no per-wave allocation). Shapes: a chain (a million
 * layers), a wide fan-out (one hub releasing every wave), a 1000 × 1000 layered grid, and a random
 * DAG.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BarrierPlannerBenchmark {

  private static final int WAVES = 1_000_000;
  private static final int WIDTH = 1_000;

  @Param({"chain", "fanout", "layered", "random"})
  public String shape;

  private MegakernelWaveDependencies dependencies;
  private final MegakernelBarrierScratch scratch = new MegakernelBarrierScratch();

  @Setup
  public void buildGraph() {
    dependencies = new MegakernelWaveDependencies(WAVES);
    switch (shape) {
      case "chain" -> {
        for (int wave = 0; wave + 1 < WAVES; wave++) {
          dependencies.add(wave, wave + 1);
        }
        dependencies.add(0, WAVES - 1);
      }
      case "fanout" -> {
        for (int wave = 1; wave < WAVES; wave++) {
          dependencies.add(0, wave);
        }
        dependencies.add(1, 2);
      }
      case "layered" -> {
        for (int wave = 0; wave + WIDTH < WAVES; wave++) {
          dependencies.add(wave, wave + WIDTH);
        }
      }
      case "random" -> {
        SplittableRandom random = new SplittableRandom(42);
        for (int edge = 0; edge < WAVES; edge++) {
          int before = random.nextInt(WAVES - 1);
          dependencies.add(before, before + 1 + random.nextInt(WAVES - 1 - before));
        }
      }
      default -> throw new IllegalStateException("unknown shape " + shape);
    }
  }

  @Benchmark
  public int planWithReusedScratch() {
    MegakernelBarrierPlan plan = MegakernelBarrierPlanner.planMegakernelBarriersWithScratch(WAVES, dependencies, scratch);
    return plan.groupCount();
  }
}
