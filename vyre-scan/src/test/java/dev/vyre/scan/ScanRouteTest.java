package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScanRouteTest {

  @Test
  void jobsTheCoresFinishBeforeAGpuWouldRunOnTheCpu() {
    ScanRoute route = ScanRoute.DEFAULTS;
    // 16 cores x 100 MB/s against 1.3 s + bytes at 10 GB/s: the crossover is near 2.48 GB.
    assertTrue(route.onCpu(6, 16), "a 6-byte file");
    assertTrue(route.onCpu(213_256_113L, 16), "the JDK's sources");
    assertTrue(route.onCpu(2_400_000_000L, 16), "2.4 GB");
    assertFalse(route.onCpu(2_500_000_000L, 16), "2.5 GB");
    assertTrue(route.onCpu(200_000_000L, 2), "fewer cores, a smaller crossover");
    assertFalse(route.onCpu(400_000_000L, 2));
  }

  @Test
  void theExplanationNamesEachSideAndWhetherItsFiguresWereMeasured() {
    assertEquals("6 bytes to scan: 16 cores at 0.10 GB/s a core (default) take 0.000 s, a GPU 1.300 s to start (default)"
        + " and 0.000 s at 10.00 GB/s (default)", ScanRoute.DEFAULTS.explain(6, 16));
    ScanRoute learned = ScanRoute.DEFAULTS.afterGpuStart(400_000_000L);
    assertTrue(learned.explain(6, 16).contains("a GPU 0.400 s to start (measured here, 1 run)"), learned.explain(6, 16));
  }

  /** A fast GPU start measured on the machine moves work the defaults sent to the CPU onto the GPU. */
  @Test
  void measuredFiguresMoveTheCrossover() {
    long bytes = 1_000_000_000L;
    assertTrue(ScanRoute.DEFAULTS.onCpu(bytes, 16));
    ScanRoute fastStart = ScanRoute.DEFAULTS.afterGpuStart(200_000_000L);
    assertEquals(200_000_000L, fastStart.gpuStartupNanos(), "the first measurement replaces the default");
    assertFalse(fastStart.onCpu(bytes, 16));
    assertEquals(300_000_000L, fastStart.afterGpuStart(400_000_000L).gpuStartupNanos(), "later ones weigh half");
    ScanRoute slowCpu = ScanRoute.DEFAULTS.afterScan(false, 1_600_000_000L, 1, 2_000_000_000L, 16);
    assertEquals(50_000_000L, slowCpu.cpuBytesPerCoreSecond(), "1.6 GB in 2 s on 16 cores");
    assertEquals(1, slowCpu.cpuScans());
    assertEquals(ScanRoute.DEFAULTS, ScanRoute.DEFAULTS.afterScan(true, 1000, 1, 1000, 16), "a small scan teaches no rate");
    assertEquals(ScanRoute.DEFAULTS, ScanRoute.DEFAULTS.afterScan(true, 213_256_113L, 15_224, 2_000_000_000L, 16),
        "nor does a tree of small files: its per-file work is not the GPU's rate");
  }

  @Test
  void figuresAreKeptAndReadBackAndABadFileMeansTheDefaults(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("sub").resolve("scan-route.properties");
    assertEquals(ScanRoute.DEFAULTS, ScanRoute.load(file, "small"), "no file yet");
    ScanRoute learned = ScanRoute.DEFAULTS.afterGpuStart(700_000_000L).afterScan(true, 1L << 30, 1, 100_000_000L, 16);
    learned.store(file, "small");
    assertEquals(learned, ScanRoute.load(file, "small"));
    Files.writeString(file, "gpu.startup.nanos=-5\ncpu.bytes.per.core.second.small=lots\n");
    assertEquals(ScanRoute.DEFAULTS, ScanRoute.load(file, "small"), "nonsense falls back to the defaults, figure by figure");
  }

  /**
   * A large set's slow CPU scans teach the large class alone: a small set keeps its own rate (and
   * the GPU's start-up is every class's).
   */
  @Test
  void eachClassOfPatternSetLearnsItsOwnRates(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("scan-route.properties");
    assertEquals("small", ScanRoute.patternClass(1_000));
    assertEquals("medium", ScanRoute.patternClass(13_000));
    assertEquals("large", ScanRoute.patternClass(136_000));
    ScanRoute small = ScanRoute.DEFAULTS.afterScan(false, 2_000_000_000L, 1, 400_000_000L, 16);
    small.store(file, "small");
    ScanRoute large = ScanRoute.load(file, "large").afterGpuStart(900_000_000L)
        .afterScan(false, 2_000_000_000L, 1, 2_000_000_000L, 16);
    large.store(file, "large");
    ScanRoute smallAgain = ScanRoute.load(file, "small");
    assertEquals(small.cpuBytesPerCoreSecond(), smallAgain.cpuBytesPerCoreSecond());
    assertEquals(900_000_000L, smallAgain.gpuStartupNanos());
    assertEquals(62_500_000L, ScanRoute.load(file, "large").cpuBytesPerCoreSecond());
    assertTrue(smallAgain.onCpu(2_000_000_000L, 16), "2 GB with a small set: 16 cores at 0.31 GB/s before a GPU starts");
    assertFalse(ScanRoute.load(file, "large").onCpu(2_000_000_000L, 16), "the same file with a large set: the GPU");
  }
}
