package dev.vyre.driver.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** vyre's vector H1 (docs/PORTS.md, "Test vectors"): the frozen ErrorCode stable ids. */
class ErrorCodeTest {

  @Test
  void stableIdsAreFrozen() { // H1
    Map<ErrorCode, Integer> ids = Arrays.stream(ErrorCode.values())
        .collect(Collectors.toMap(code -> code, ErrorCode::stableId));
    assertEquals(Map.of(
        ErrorCode.DeviceOutOfMemory, 1001,
        ErrorCode.UnsupportedFeature, 1002,
        ErrorCode.PoisonedLock, 1003,
        ErrorCode.KernelCompileFailed, 1004,
        ErrorCode.DispatchFailed, 1005,
        ErrorCode.InvalidProgram, 1006,
        ErrorCode.CooperativeResidencyExceeded, 1007,
        ErrorCode.DeviceLost, 1008,
        ErrorCode.Unknown, 1999), ids);
  }

  @Test
  void idsAreUniqueAndAppendOnlyInDeclarationOrder() { // H1: all unique
    ErrorCode[] codes = ErrorCode.values();
    for (int i = 1; i < codes.length; i++) {
      assertTrue(codes[i - 1].stableId() < codes[i].stableId(), codes[i - 1] + " before " + codes[i]);
    }
  }
}
