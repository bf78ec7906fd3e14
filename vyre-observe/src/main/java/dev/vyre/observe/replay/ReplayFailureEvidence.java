package dev.vyre.observe.replay;

import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.RetryClass;

/**
 * Failure evidence kept in a replay record's tail (vyre's {@code ReplayFailureEvidence}).
 *
 * @param slotStatus the slot's terminal or observed ring status word, 0 when unknown
 * @param backendErrorCode the stable id of the backend's {@code ErrorCode}, 0 when there was no backend error
 * @param outputDigest {@link ReplayLogFormat#outputDigest} of the output bytes observed at the failure (u64)
 */
public record ReplayFailureEvidence(int slotStatus, ReplayFailureClass failureClass, int backendErrorCode, long outputDigest) {

  /** vyre's {@code from_backend_error}: the class from the error's retry class, its code's stable id, the output's digest. */
  public static ReplayFailureEvidence fromBackendError(int slotStatus, BackendException error, byte[] outputBytes) {
    return new ReplayFailureEvidence(slotStatus, ReplayFailureClass.of(RetryClass.of(error.code())), error.code().stableId(),
        ReplayLogFormat.outputDigest(outputBytes));
  }
}
