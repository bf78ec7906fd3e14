package dev.vyre.observe.replay;

/**
 * One record of a replay log (vyre's {@code ReplayRecord}): the published slot and, when the
 * record carries any, its failure evidence.
 *
 * @param failure null when the record's four evidence fields are all zero
 */
public record ReplayRecord(RecordedSlot slot, ReplayFailureEvidence failure) {

  public boolean hasFailure() {
    return failure != null;
  }
}
