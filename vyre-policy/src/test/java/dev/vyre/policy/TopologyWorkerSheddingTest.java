package dev.vyre.policy;

import static dev.vyre.policy.MegakernelDispatchTopology.DenseFrontier;
import static dev.vyre.policy.MegakernelDispatchTopology.MemoryConstrained;
import static dev.vyre.policy.MegakernelDispatchTopology.SparseFrontier;
import static dev.vyre.policy.MegakernelLaunchPolicyTest.POLICY;
import static dev.vyre.policy.MegakernelLaunchPolicyTest.direct;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.driver.error.BackendException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TopologyWorkerSheddingTest {

  @ParameterizedTest
  @CsvSource({"128, 8500, 96", "128, 8375, 96", "128, 10000, 64", "128, 9250, 80", "2, 10000, 1", "1, 10000, 1",
      "0, 10000, 0", "128, 0, 128"})
  void memoryConstrainedKeepsThreeQuartersDownToHalf(long workers, int pressure, long expected) {
    MegakernelLaunchRequest request = direct(16384, workers, 256).memoryPressureBps(pressure).build();
    assertEquals(expected, TopologyWorkerShedding.workersFor(POLICY, request, MemoryConstrained));
  }

  @ParameterizedTest
  @CsvSource({"256, 100, 51", "256, 1, 32", "20, 1, 20", "256, 500, 256", "256, 625, 256", "0, 100, 0"})
  void sparseFrontierScalesWithDensityDownToAWarp(long workers, int density, long expected) {
    MegakernelLaunchRequest request = direct(1000, workers, 256).graphNodeCount(1_000_000).frontierDensityBps(density)
        .build();
    assertEquals(expected, TopologyWorkerShedding.workersFor(POLICY, request, SparseFrontier));
  }

  @Test
  void sparseSheddingNeedsGraphTelemetry() {
    MegakernelLaunchRequest request = direct(1000, 256, 256).frontierDensityBps(1).build();
    assertEquals(256, TopologyWorkerShedding.workersFor(POLICY, request, SparseFrontier));
  }

  @Test
  void otherTopologiesKeepTheirWorkers() {
    MegakernelLaunchRequest request = direct(1000, 256, 256).graphNodeCount(1000).frontierDensityBps(1)
        .memoryPressureBps(10_000).build();
    assertEquals(256, TopologyWorkerShedding.workersFor(POLICY, request, DenseFrontier));
  }

  @Test
  void aPressureThresholdAboveTenThousandIsAnError() {
    MegakernelLaunchPolicy policy = new MegakernelLaunchPolicy(MegakernelSizingPolicy.standard(), 1024, 2, 4, 8, 4,
        4096, 32, 500, 4000, 10_001, 65536, 16);
    MegakernelLaunchRequest request = direct(16, 128, 256).memoryPressureBps(20_000).build();
    BackendException error = assertThrows(BackendException.class,
        () -> TopologyWorkerShedding.workersFor(policy, request, MemoryConstrained));
    assertEquals("megakernel memory-pressure threshold exceeds 10000 bps. Fix: configure threshold in basis points.",
        error.getMessage());
  }
}
