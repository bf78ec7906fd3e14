package dev.vyre.cli;

import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.replay.RecordedSlot;
import dev.vyre.runtime.replay.ReplayFailureClass;
import dev.vyre.runtime.replay.ReplayFailureEvidence;
import dev.vyre.runtime.replay.ReplayLogFormat;
import dev.vyre.runtime.replay.RingLog;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * Writes the tasks of a {@code vyre run} into a replay log, in program order (which is publish
 * order), once each has ended: a record per task, with failure evidence when it did not finish DONE.
 */
final class TaskRecorder {

  /** The slot_idx of a task that never finished: its slot was never reported. */
  static final int UNKNOWN_SLOT = -1;

  private TaskRecorder() {}

  /** Host wall-clock time in nanoseconds since the UNIX epoch, as the log's timestamp_ns. */
  static long wallClockNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  /**
   * Appends one record per task and syncs the log. A FAULT is a ProgramBug (the slot's own tenant,
   * opcode or arguments must change; the kernel wrote nothing); WAIT_IO, which nothing continues in a
   * run, and a task that never finished are Unclassified. No backend error is involved (code 0);
   * the output digest is over the observable words of the final control block, the run's output.
   */
  static void record(RingLog log, List<Task> tasks, List<TaskResult> results, long[] publishedAt, int[] epochAtPublish,
      byte[] finalControl) {
    long outputDigest = ReplayLogFormat.outputDigest(
        Arrays.copyOfRange(finalControl, Math.min(4 * ControlLayout.OBSERVABLE_BASE, finalControl.length), finalControl.length));
    for (int i = 0; i < tasks.size(); i++) {
      Task task = tasks.get(i);
      TaskResult result = results.get(i);
      RecordedSlot slot = RecordedSlot.of(publishedAt[i], result != null ? result.slot() : UNKNOWN_SLOT, task.tenant(),
          task.opcode(), task.args(), epochAtPublish[i]);
      if (result != null && result.status() == SlotStatus.DONE) {
        log.append(slot);
      } else {
        int status = result != null ? result.status().code() : 0;
        ReplayFailureClass failureClass = status == SlotLayout.STATUS_FAULT ? ReplayFailureClass.ProgramBug : ReplayFailureClass.Unclassified;
        log.appendWithFailure(slot, new ReplayFailureEvidence(status, failureClass, 0, outputDigest));
      }
    }
    log.sync();
  }
}
