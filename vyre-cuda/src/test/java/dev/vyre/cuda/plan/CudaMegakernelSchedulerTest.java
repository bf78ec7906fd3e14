package dev.vyre.cuda.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.driver.planner.MegakernelExecutionSample;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** vyre's vectors G1-G5 (docs/PORTS.md, "Test vectors"): the telemetry sample and the fusion-pressure scheduler. */
class CudaMegakernelSchedulerTest {

  @Test
  void sampleFromTelemetrySnapshot() { // G1
    assertEquals(new MegakernelExecutionSample(123.0, 0.375, 4_096),
        CudaMegakernelScheduler.sampleFromTelemetry(3_750, 4_096, 123.0));
  }

  @Test
  void schedulerReusesTheCallersStorage() { // G2
    double[] out = new double[4];
    double[] result = CudaMegakernelScheduler.scheduleMegakernelFromCudaSamplesInto(
        List.of(new MegakernelExecutionSample(10, 0, 0), new MegakernelExecutionSample(20, 1, 4_096)), 5, 8, 0.25, out);
    assertSame(out, result);
    assertArrayEquals(new double[] {0.1515565609931946, 0.5830372619628907, 0, 0}, result);
  }

  @Test
  void schedulerRejectsDensitiesOutsideTheUnitInterval() { // G3
    MegakernelScheduleException error = assertThrows(MegakernelScheduleException.class,
        () -> CudaMegakernelScheduler.scheduleMegakernelFromCudaSamples(
            List.of(new MegakernelExecutionSample(10, 1.5, 0)), 0, 8, 0.25));
    assertEquals(MegakernelScheduleException.Variant.InvalidFrontierDensity, error.variant());
    assertEquals(Map.of("index", 0L, "value", 1.5), Map.copyOf(error.fields()));
  }

  @Test
  void singleCandidateConvergesToItsPressure() { // G4
    assertArrayEquals(new double[] {0.35750000000000004},
        CudaMegakernelScheduler.scheduleMegakernelFromCudaSamples(List.of(new MegakernelExecutionSample(1.0, 0, 0)), 0,
            4, 1));
  }

  /**
   * G5, from vyre's GPU test: two add-one dispatches of 8 and 65,536 u32 elements read back 32
   * and 262,144 bytes, their costs are replaced by 100 and 10,000 ns, and the launch overhead is the
   * enqueue time the GPU measured; here it is swept over that measurement's plausible range.
   */
  @ParameterizedTest(name = "launch overhead {0} ns")
  @ValueSource(doubles = {0, 500, 1_500, 5_000, 50_000, 1_000_000})
  void denseReadbackHeavyCandidateGetsTheHigherFusionIndicator(double launchNs) { // G5
    double[] schedule = CudaMegakernelScheduler.scheduleMegakernelFromCudaSamples(List.of(
        new MegakernelExecutionSample(100, 0.25, 32), new MegakernelExecutionSample(10_000, 0.95, 262_144)),
        launchNs, 64, 0.25);
    assertEquals(2, schedule.length);
    assertTrue(schedule[1] > schedule[0], () -> schedule[0] + " vs " + schedule[1]);
  }

  @Test
  void stepAndOverheadAreCheckedBeforeSamples() {
    List<MegakernelExecutionSample> bad = List.of(new MegakernelExecutionSample(-1, 2, 0));
    assertEquals(MegakernelScheduleException.Variant.InvalidStep, assertThrows(MegakernelScheduleException.class,
        () -> CudaMegakernelScheduler.scheduleMegakernelFromCudaSamples(bad, -1, 1, Double.NaN)).variant());
    assertEquals(MegakernelScheduleException.Variant.InvalidLaunchOverhead, assertThrows(MegakernelScheduleException.class,
        () -> CudaMegakernelScheduler.scheduleMegakernelFromCudaSamples(bad, -1, 1, 0.5)).variant());
    assertEquals(MegakernelScheduleException.Variant.InvalidCost, assertThrows(MegakernelScheduleException.class,
        () -> CudaMegakernelScheduler.scheduleMegakernelFromCudaSamples(bad, 0, 1, 0.5)).variant());
    assertArrayEquals(new double[] {0, 0}, CudaMegakernelScheduler.scheduleMegakernelFromCudaSamples(
        List.of(new MegakernelExecutionSample(0, 0.5, 0), new MegakernelExecutionSample(0, 0.5, 0)), 0, 8, 0.5));
  }
}
