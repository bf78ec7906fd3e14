package dev.vyre.cuda;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.vyre.runtime.spi.Availability;
import org.junit.jupiter.api.Test;

/**
 * Says, in every build, whether the GPU suite (tests tagged {@code gpu}) can run here and why not:
 * Maven excludes that tag; scripts/gpu-check.sh runs it on a GPU machine.
 */
class GpuSuiteNoticeTest {

  @Test
  void reportsWhyTheGpuSuiteIsOrIsNotRunnableHere() {
    Availability availability = new CudaBackend().availability();
    assertNotNull(availability.detail());
    System.out.println(availability.usable()
        ? "GPU suite: a GPU is usable here (" + availability.detail() + "); run scripts/gpu-check.sh"
        : "GPU suite skipped: " + availability.detail() + " (run scripts/gpu-check.sh on a GPU machine)");
  }
}
