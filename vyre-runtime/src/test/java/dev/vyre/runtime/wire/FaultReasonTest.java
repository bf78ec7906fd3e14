package dev.vyre.runtime.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FaultReasonTest {

  @Test
  void codesRoundTripAndUnknownCodesReadAsHandlerFailed() {
    for (FaultReason reason : FaultReason.values()) {
      assertEquals(reason, FaultReason.of(reason.code()));
    }
    assertEquals(FaultReason.HANDLER_FAILED, FaultReason.of(99));
    assertEquals(FaultReason.HANDLER_FAILED, FaultReason.of(-1));
  }
}
