package dev.vyre.cuda.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** E2: the device key derived from CUDA capabilities. */
class CudaMegakernelDeviceKeyTest {

  @Test
  void deviceKeyIsDerivedFromCudaCaps() {
    assertEquals(CudaMegakernelPlanCacheKeyTest.DEVICE, CudaMegakernelDeviceKey.fromCapabilities(12, 0, 32, true, 1024));
  }

  @Test
  void gridSyncNeedsCooperativeLaunchOnSm60AndVersionsPinAtU16() {
    assertFalse(CudaMegakernelDeviceKey.fromCapabilities(5, 2, 32, true, 1024).supportsGridSync());
    assertFalse(CudaMegakernelDeviceKey.fromCapabilities(9, 0, 32, false, 1024).supportsGridSync());
    assertFalse(CudaMegakernelDeviceKey.fromCapabilities(6, 1, 32, true, 1024).supportsTensorCores());
    assertEquals(65_535, CudaMegakernelDeviceKey.fromCapabilities(70_000, 0, 32, true, 1024).smMajor());
  }
}
