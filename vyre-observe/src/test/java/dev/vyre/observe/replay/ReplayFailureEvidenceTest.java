package dev.vyre.observe.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.ErrorCode;
import dev.vyre.driver.error.ErrorVariant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Evidence from a backend error: the class from its code's retry class, the code's stable id, the output digest. */
class ReplayFailureEvidenceTest {

  /** A backend error with a given code, as a backend module declares its own variants. */
  private static BackendException withCode(ErrorCode code) {
    ErrorVariant variant = code::name;
    return new BackendException(code, variant, Map.of(), code.name() + ". Fix: none.") {};
  }

  @Test
  void classifiesByTheErrorCode() {
    byte[] output = "partial-output".getBytes();
    ReplayFailureEvidence lost = ReplayFailureEvidence.fromBackendError(3, withCode(ErrorCode.DeviceLost), output);
    assertEquals(new ReplayFailureEvidence(3, ReplayFailureClass.DeviceLoss, 1008, ReplayLogFormat.outputDigest(output)), lost);
    assertEquals(ReplayFailureClass.TransientQueue,
        ReplayFailureEvidence.fromBackendError(7, BackendException.deviceOutOfMemory(2, 1), output).failureClass());
    ReplayFailureEvidence other = ReplayFailureEvidence.fromBackendError(7, BackendException.other("x. Fix: y."), new byte[0]);
    assertEquals(ReplayFailureClass.ProgramBug, other.failureClass());
    assertEquals(1999, other.backendErrorCode());
    assertEquals(0xa6a1f9f5b94913afL, other.outputDigest());
  }
}
