package dev.vyre.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.cuda.ffm.CudaDriver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The same-run baselines give back what they took when a step fails part way. The test holds its
 * own retain on the primary context, so that anything a failed measurement leaked would stay
 * allocated in it (a context whose last retain goes is destroyed with everything in it, which
 * would hide the leak), and fails each measurement after each step in turn many times over.
 */
@Tag("gpu")
class CudaBaselinesGpuTest {

  private static final List<String> STEPS = List.of("context", "module", "stream", "control", "ring", "graph");
  private static final int ROUNDS_PER_STEP = 50;

  /** What the test's hook throws, so that no other failure passes for it. */
  private static final class Injected extends RuntimeException {
    Injected(String step) {
      super("injected after " + step);
    }
  }

  @Test
  void aMeasurementFailingAfterAnyStepGivesBackEverythingItTook() {
    CudaDriver driver = CudaDriver.load();
    int device = driver.device(CudaDevice.selectedOrdinal());
    MemorySegment context = driver.retainPrimaryContext(device);
    try {
      driver.setCurrent(context);
      // Warm: the kernel compiled and cached, the driver's pools grown, one failure at each step.
      Map<String, Object> first = CudaBaselines.measure(20, 20);
      assertTrue(first.containsKey("pingpong_floor_p50_us"), first.toString());
      for (String step : STEPS) {
        failAfter(step);
      }
      driver.setCurrent(context);
      long freeBefore = driver.freeDeviceMemory();
      long mappingsBefore = mappings();

      for (String step : STEPS) {
        for (int round = 0; round < ROUNDS_PER_STEP; round++) {
          failAfter(step);
        }
      }

      driver.setCurrent(context);
      long lost = freeBefore - driver.freeDeviceMemory();
      // A leaked module, stream or 1000-node graph holds device memory each; 300 failures leaking
      // any of them lose far more than the driver's pools vary by (it takes memory in 2 MiB pages).
      assertTrue(lost < 16L << 20, "device memory lost over " + STEPS.size() * ROUNDS_PER_STEP + " failed measurements: " + lost + " bytes");
      // Pinned host buffers are not device memory: each cuMemHostAlloc the driver does not
      // sub-allocate is a mapping of its own. The JVM adds a few (a new compiler thread's stack).
      long added = mappings() - mappingsBefore;
      assertTrue(added < 64, "process mappings added over the failed measurements: " + added);
      assertFalse(CudaBaselines.measure(20, 20).isEmpty(), "a whole measurement still runs after them");
    } finally {
      driver.releasePrimaryContext(device);
    }
  }

  private static void failAfter(String step) {
    Injected error = assertThrows(Injected.class, () -> CudaBaselines.measure(20, 20, taken -> {
      if (taken.equals(step)) {
        throw new Injected(taken);
      }
    }));
    assertEquals("injected after " + step, error.getMessage());
    // Every release ran without failing (a failed release would be suppressed into the error).
    assertEquals(0, error.getSuppressed().length, () -> "releases failed after " + step + ": " + List.of(error.getSuppressed()));
    assertNull(error.getCause());
  }

  private static long mappings() {
    try (var lines = Files.lines(Path.of("/proc/self/maps"))) {
      return lines.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
