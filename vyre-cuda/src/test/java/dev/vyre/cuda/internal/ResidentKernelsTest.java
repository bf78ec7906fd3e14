package dev.vyre.cuda.internal;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import org.junit.jupiter.api.Test;

class ResidentKernelsTest {

  // A device ordinal no other test uses: the registry is the process's.
  private static final int DEVICE = 91;

  @Test
  void aLaunchThatNeedsTheWholeDeviceIsRefusedWhileAPersistentKernelRunsThere() {
    assertDoesNotThrow(() -> ResidentKernels.requireIdle(DEVICE, "the frontier kernel"));
    ResidentKernels.launched(DEVICE);
    ResidentKernels.launched(DEVICE);
    assertEquals(2, ResidentKernels.live(DEVICE));
    PipelineException busy = assertThrows(PipelineException.class, () -> ResidentKernels.requireIdle(DEVICE, "the frontier kernel"));
    assertEquals(PipelineException.Variant.Busy, busy.variant());
    assertTrue(busy.getMessage().startsWith("the frontier kernel: device 91 runs 2 persistent megakernel(s)")
        && busy.getMessage().contains("Fix: close the megakernel first"), busy.getMessage());
    assertDoesNotThrow(() -> ResidentKernels.requireIdle(DEVICE + 1, "the frontier kernel"));
    ResidentKernels.exited(DEVICE);
    assertThrows(PipelineException.class, () -> ResidentKernels.requireIdle(DEVICE, "the frontier kernel"));
    ResidentKernels.exited(DEVICE);
    assertEquals(0, ResidentKernels.live(DEVICE));
    assertDoesNotThrow(() -> ResidentKernels.requireIdle(DEVICE, "the frontier kernel"));
    // An exit never counts below zero.
    ResidentKernels.exited(DEVICE);
    assertEquals(0, ResidentKernels.live(DEVICE));
  }
}
