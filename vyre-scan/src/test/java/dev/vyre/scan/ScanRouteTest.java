package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ScanRouteTest {

  @Test
  void jobsTheCoresFinishWhileAGpuStartsRunOnTheCpu() {
    // 16 cores x 100 MB/s x 1.3 s.
    assertEquals(2_080_000_000L, ScanRoute.cpuCrossoverBytes(16));
    assertTrue(ScanRoute.onCpu(6, 16), "a 6-byte file");
    assertTrue(ScanRoute.onCpu(213_256_113L, 16), "the JDK's sources");
    assertTrue(ScanRoute.onCpu(1L << 30, 16), "the 1 GiB bench corpus");
    assertFalse(ScanRoute.onCpu(2_400_000_000L, 16), "a 2.4 GB file");
    assertFalse(ScanRoute.onCpu(2_080_000_000L, 16), "the crossover itself goes to the GPU");
    assertTrue(ScanRoute.cpuCrossoverBytes(2) < ScanRoute.cpuCrossoverBytes(16), "fewer cores, a smaller crossover");
  }

  @Test
  void theExplanationNamesTheBytesTheCrossoverAndTheStartUp() {
    assertEquals("6 bytes to scan, below the 2080000000 that 16 cores scan in the 1300 ms a GPU takes to start",
        ScanRoute.explain(6, 16));
    assertTrue(ScanRoute.explain(3_000_000_000L, 16).startsWith("3000000000 bytes to scan, at or above the "));
  }
}
