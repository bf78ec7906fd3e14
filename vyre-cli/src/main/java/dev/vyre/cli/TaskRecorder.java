package dev.vyre.cli;

import dev.vyre.driver.error.ErrorCode;
import dev.vyre.driver.error.KernelException;
import dev.vyre.observe.replay.RecordedSlot;
import dev.vyre.observe.replay.ReplayFailureClass;
import dev.vyre.observe.replay.ReplayFailureEvidence;
import dev.vyre.observe.replay.ReplayLogFormat;
import dev.vyre.observe.replay.RerunEntry;
import dev.vyre.observe.replay.RerunSidecar;
import dev.vyre.observe.replay.RingLog;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Writes the tasks of a {@code vyre run} into a replay log as they end, so that at any moment the
 * log holds every task that has ended so far: a run that is killed, interrupted or fails keeps
 * them. A record per task: its slot, tenant, opcode, first four args, the EPOCH read just before
 * it was published and the wall-clock time it was published, with failure evidence when it did not
 * finish DONE. Beside each record, the log's {@link RerunSidecar} gets the whole task (all of its
 * args, its priority and its index in the program) at the same record index, and the run's final
 * state when it finished, for {@code vyre replay --rerun}.
 *
 * <p><b>Order: completion order</b>, the order the tasks' futures completed ({@link TaskEnds}).
 * Each priority partition of the ring retires in ticket order, so within one priority level this
 * is program order; a task of a higher level can be recorded before an earlier task of a lower
 * one (timestamp_ns, taken at publish, keeps program order). Tasks that never ended come last, in
 * program order.
 *
 * <p><b>Evidence.</b> A FAULT is a ProgramBug (the slot's own tenant, opcode or arguments must
 * change; the kernel wrote nothing); a task whose future failed because the device was lost (a
 * CUDA kernel's sticky fault) is DeviceLoss with {@code ErrorCode.DeviceLost}'s stable id;
 * WAIT_IO, which nothing continues in a run, a task whose future failed otherwise (the kernel
 * stopped first) and a task that never ended are Unclassified, with code 0. The output digest is over the observable words of the
 * control block as of the moment the failure was seen: a control snapshot taken when the run took
 * the task's end (one snapshot for the failures taken together), the final control block for the
 * tasks still unended when the run finished, and a snapshot taken then for the tasks unended when
 * the run was abandoned ({@link #abandon}).
 *
 * <p><b>Durability.</b> An append is in the file at once ({@link RingLog}: one write of the whole
 * record; then the sidecar entry), so a process that dies keeps it and tears at most the record it
 * was writing. Against a machine crash the log and its sidecar are synced (fsync) every
 * {@link #SYNC_EVERY_RECORDS} records, once the oldest record not synced is
 * {@link #SYNC_EVERY_NANOS} old (the waiting thread wakes for it), at the end, when closed after an
 * exception, and from a JVM shutdown hook, which Ctrl-C (SIGINT) and SIGTERM run. A record that
 * cannot be written (a full disk) ends the run with that error; the records before it stay.
 *
 * <p>Thread-safe: the thread running the program, the shutdown hook and {@link #close} take turns.
 */
final class TaskRecorder implements AutoCloseable {

  /** The slot_idx of a task that never finished: its slot was never reported. */
  static final int UNKNOWN_SLOT = -1;
  /** Records appended without a sync at most. */
  static final int SYNC_EVERY_RECORDS = 16_384;
  /** How long a record waits for its sync at most (while the run goes on). */
  static final long SYNC_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final RingLog log;
  private final RerunSidecar sidecar;
  private final List<Task> tasks;
  private final TaskEnds ends;
  /** The control block as it is now. */
  private final Supplier<byte[]> control;
  private final long[] publishedAt;
  private final int[] epochAtPublish;
  private final boolean[] recorded;
  private final Thread shutdownHook;
  private int published;
  private int recordedCount;
  private int unsynced;
  private long oldestUnsyncedAt;
  /** {@link #finish} or {@link #abandon} ran, or the recorder is {@link #exiting}: nothing is appended after. */
  private boolean finished;
  private boolean exiting;

  private TaskRecorder(RingLog log, RerunSidecar sidecar, List<Task> tasks, TaskEnds ends, Supplier<byte[]> control) {
    this.log = log;
    this.sidecar = sidecar;
    this.tasks = tasks;
    this.ends = ends;
    this.control = control;
    this.publishedAt = new long[tasks.size()];
    this.epochAtPublish = new int[tasks.size()];
    this.recorded = new boolean[tasks.size()];
    this.shutdownHook = Thread.ofPlatform().name("vyre-record-flush").unstarted(this::flushAtExit);
  }

  /**
   * Records {@code tasks} into {@code log} and its {@code sidecar} as {@code ends} hands them out;
   * {@code control} takes a control snapshot of the running kernel. Registers the JVM shutdown hook
   * that {@link #close} removes; when the JVM is already shutting down (a signal came first) the
   * recorder is {@link #exiting} and records nothing.
   */
  static TaskRecorder start(RingLog log, RerunSidecar sidecar, List<Task> tasks, TaskEnds ends, Supplier<byte[]> control) {
    TaskRecorder recorder = new TaskRecorder(log, sidecar, tasks, ends, control);
    if (!ShutdownHooks.add(recorder.shutdownHook)) {
      recorder.exiting = true;
      recorder.finished = true;
    }
    return recorder;
  }

  /** Whether the JVM was shutting down when recording began: the run must publish nothing, since nothing would be recorded. */
  boolean exiting() {
    return exiting;
  }

  /** Host wall-clock time in nanoseconds since the UNIX epoch, as the log's timestamp_ns. */
  static long wallClockNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  /**
   * Task {@code task} is about to be published, at {@code at} (wall clock) with EPOCH {@code epoch};
   * call in program order, before the publish.
   */
  synchronized void publishing(int task, long at, int epoch) {
    publishedAt[task] = at;
    epochAtPublish[task] = epoch;
    published = task + 1;
  }

  /** The kernel refused to publish task {@code task}, the last one {@link #publishing}: it is not recorded. */
  synchronized void refused(int task) {
    if (published == task + 1) {
      published = task;
    }
  }

  /** Appends every task that ended and was not taken yet, in the order they ended, and syncs when due. */
  synchronized void recordEnded() {
    if (finished) {
      return;
    }
    appendEnded();
    syncIfDue(System.nanoTime());
  }

  private void appendEnded() {
    long digest = 0;
    boolean snapshotTaken = false;
    for (int task = ends.take(); task >= 0; task = ends.take()) {
      TaskResult result = ends.result(task);
      if (result != null && result.status() == SlotStatus.DONE) {
        append(task, result, 0);
      } else {
        if (!snapshotTaken) {
          digest = observableDigest(control.get());
          snapshotTaken = true;
        }
        append(task, result, digest);
      }
    }
  }

  /** Nanoseconds until the records appended so far are due for a sync; {@link Long#MAX_VALUE} when none waits. */
  synchronized long nanosUntilSyncDue(long now) {
    return unsynced == 0 || finished ? Long.MAX_VALUE : Math.max(0, oldestUnsyncedAt + SYNC_EVERY_NANOS - now);
  }

  /** Syncs when {@link #SYNC_EVERY_RECORDS} records wait for it or the oldest has waited {@link #SYNC_EVERY_NANOS}. */
  synchronized void syncIfDue() {
    syncIfDue(System.nanoTime());
  }

  private void syncIfDue(long now) {
    if (!finished && unsynced > 0 && (unsynced >= SYNC_EVERY_RECORDS || now - oldestUnsyncedAt >= SYNC_EVERY_NANOS)) {
      sync();
    }
  }

  /**
   * The run is over and the kernel shut down ({@code ends} closed): appends every published task
   * not recorded yet as one that never finished, with the digest of {@code finalControl}'s
   * observable words, writes the final state into the sidecar, and syncs.
   */
  synchronized void finish(byte[] finalControl) {
    if (!finished) {
      finished = true;
      appendUnended(observableDigest(finalControl));
      sidecar.finish(finalControl);
      sync();
    }
  }

  /** How many tasks were recorded so far. */
  synchronized int recorded() {
    return recordedCount;
  }

  /**
   * What an exception or Ctrl-C leaves: appends the tasks that ended and were not taken yet; then,
   * if the run was still waiting for its tasks (so the kernel still runs), closes {@code ends} and
   * appends every published task that has not ended as one that never finished, with the digest of
   * the control block now; syncs. After the run stopped waiting, while its kernel shuts down, only
   * syncs: the kernel is not read then. Nothing is appended after.
   */
  synchronized void abandon() {
    if (finished) {
      return;
    }
    finished = true;
    try {
      if (!ends.isClosed()) {
        appendEnded();
        ends.close();
        appendUnended(observableDigest(control.get()));
      }
    } finally {
      sync();
    }
  }

  /** Abandons the run unless it finished, and removes the shutdown hook. */
  @Override
  public void close() {
    try {
      abandon();
    } finally {
      // Once the JVM is exiting the hook runs (or ran) and finds the run abandoned.
      ShutdownHooks.remove(shutdownHook);
    }
  }

  /** The shutdown hook: a hook cannot throw to anyone, so a failure is printed as the command prints errors. */
  private void flushAtExit() {
    try {
      abandon();
    } catch (RuntimeException e) {
      System.err.println("vyre: the replay log " + log.path() + " may lack the last tasks: " + e.getMessage());
    }
  }

  private void appendUnended(long digest) {
    for (int task = 0; task < published; task++) {
      if (!recorded[task]) {
        append(task, null, digest);
      }
    }
  }

  /** Appends task {@code task}'s record; {@code result} null: it never finished (or its future failed). */
  private void append(int task, TaskResult result, long digest) {
    Task t = tasks.get(task);
    RecordedSlot slot = RecordedSlot.of(publishedAt[task], result != null ? result.slot() : UNKNOWN_SLOT, t.tenant(),
        t.opcode(), t.args(), epochAtPublish[task]);
    long index = log.cursor();
    if (result != null && result.status() == SlotStatus.DONE) {
      log.append(slot);
    } else {
      int status = result != null ? result.status().code() : 0;
      ReplayFailureClass failureClass = status == SlotLayout.STATUS_FAULT ? ReplayFailureClass.ProgramBug : ReplayFailureClass.Unclassified;
      int errorCode = 0;
      // A task whose kernel stopped first carries the kernel's error: a device loss says so.
      if (result == null && ends.failure(task) instanceof KernelException stopped && stopped.code() != ErrorCode.Unknown) {
        failureClass = ReplayFailureClass.of(stopped.retryClass());
        errorCode = stopped.code().stableId();
      }
      log.appendWithFailure(slot, new ReplayFailureEvidence(status, failureClass, errorCode, digest));
    }
    sidecar.write(index, new RerunEntry(task, publishedAt[task], t));
    recorded[task] = true;
    recordedCount++;
    if (unsynced++ == 0) {
      oldestUnsyncedAt = System.nanoTime();
    }
  }

  private void sync() {
    log.sync();
    sidecar.sync();
    unsynced = 0;
  }

  /** The digest of a control block's observable words, the run's output. */
  private static long observableDigest(byte[] control) {
    return ReplayLogFormat.outputDigest(
        Arrays.copyOfRange(control, Math.min(4 * ControlLayout.OBSERVABLE_BASE, control.length), control.length));
  }
}
