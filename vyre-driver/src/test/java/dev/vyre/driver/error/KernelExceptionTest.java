package dev.vyre.driver.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A running kernel's failures and how a caller may recover from each. */
class KernelExceptionTest {

  @Test
  void onlyALostDeviceAsksForANewDevice() {
    KernelException lost = KernelException.deviceLost("cuda", "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access)", "in_flight=1");
    assertEquals(KernelException.Variant.DeviceFault, lost.variant());
    assertEquals(ErrorCode.DeviceLost, lost.code());
    assertEquals(RetryClass.NewDevice, lost.retryClass());
    assertTrue(lost.getMessage().contains("sticky") && lost.getMessage().contains("in a new process or on another device")
        && lost.getMessage().contains("Fix: "), lost.getMessage());

    for (KernelException other : new KernelException[] {KernelException.deviceFault("reference", "a worker died", "", null),
        KernelException.stalled("cuda", 2000, 1, ""), KernelException.closed("cuda"), KernelException.protocolViolation("reference", "x")}) {
      assertEquals(ErrorCode.Unknown, other.code(), other.variant().name());
      assertEquals(RetryClass.Never, other.retryClass(), other.variant().name());
    }
  }
}
