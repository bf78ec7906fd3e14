package dev.vyre.driver.error;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** vyre's recovery classification ({@code classify_backend_error}; docs/PORTS.md, "Backend errors and recovery"). */
class RetryClassTest {

  @Test
  void onlyDeviceLossNeedsANewDeviceAndOnlyOomOrAPoisonedLockRetriesInPlace() {
    Map<ErrorCode, RetryClass> classes = new EnumMap<>(ErrorCode.class);
    for (ErrorCode code : ErrorCode.values()) {
      classes.put(code, RetryClass.of(code));
    }
    assertEquals(Map.of(
        ErrorCode.DeviceOutOfMemory, RetryClass.SameDevice,
        ErrorCode.UnsupportedFeature, RetryClass.Never,
        ErrorCode.PoisonedLock, RetryClass.SameDevice,
        ErrorCode.KernelCompileFailed, RetryClass.Never,
        ErrorCode.DispatchFailed, RetryClass.Never,
        ErrorCode.InvalidProgram, RetryClass.Never,
        ErrorCode.CooperativeResidencyExceeded, RetryClass.Never,
        ErrorCode.DeviceLost, RetryClass.NewDevice,
        ErrorCode.Unknown, RetryClass.Never), classes);
  }

  @Test
  void backendErrorsClassifyThroughTheirCode() {
    assertEquals(RetryClass.SameDevice, RetryClass.of(BackendException.deviceOutOfMemory(2, 1).code()));
    assertEquals(RetryClass.Never, RetryClass.of(BackendException.other("queue full. Fix: retry.").code()));
  }
}
