package dev.vyre.cli;

import dev.vyre.driver.error.InputException;
import dev.vyre.observe.replay.ReplayLogFormat;
import dev.vyre.observe.replay.RerunSidecar;
import dev.vyre.observe.replay.RingLog;
import dev.vyre.policy.adapt.WorkerGroupLoop;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.MegakernelBuilder;
import dev.vyre.runtime.ShutdownReport;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.program.SlotProgram;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.DebugLogLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vyre run FILE}: runs a slot program and prints DONE_COUNT, metrics, observables and faults. */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Run a slot program (one task per line, see examples/) on a megakernel.",
    exitCodeListHeading = "Exit status:%n", exitCodeList = {"0:Every task finished DONE.",
        "1:A task did not finish DONE (FAULT, WAIT_IO, or it had not ended when the run gave up).",
        "2:An error: bad options, a program or log that cannot be read or written."})
final class RunCommand implements Callable<Integer> {

  @Parameters(paramLabel = "FILE", description = "The slot program.")
  Path file;

  @Mixin BackendOption backendOption;

  @Option(names = "--tenants", defaultValue = "2", description = "Tenants 0..N-1 are authorized (default: ${DEFAULT-VALUE}).")
  int tenants;

  @Option(names = "--observables", defaultValue = "64", description = "Observable words (default: ${DEFAULT-VALUE}).")
  int observables;

  @Option(names = "--slots", defaultValue = "1024", description = "Ring slots (default: ${DEFAULT-VALUE}).")
  int slots;

  @Option(names = "--device", paramLabel = "N", description = "Run on device N (default: $VYRE_CUDA_DEVICE, else 0).")
  Integer device;

  @Option(names = "--timeout", defaultValue = "30",
      description = "Seconds to wait for the program: it is given up on once no task has ended for this long (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  @Option(names = "--watch", arity = "0..1", fallbackValue = "250", paramLabel = "MS",
      description = "Print a live one-line telemetry dashboard to stderr every MS milliseconds (default 250).")
  Long watchMillis;

  @Option(names = "--record", paramLabel = "FILE", description = {
      "Write every task to a new replay log (VRRL0002: each record with a checksum) as soon as it ends, so a run that is"
          + " killed or fails keeps the tasks that ended: its slot, tenant, opcode, first four args and the EPOCH when it"
          + " was published, with failure evidence for a task that did not finish DONE (the digest of the observables as of"
          + " when the failure was seen). An existing FILE is refused unless --force; an empty one is used.",
      "Records come in the order tasks end (program order within a priority level); tasks that never ended come last."
          + " `vyre replay FILE` prints it.",
      "Beside it, FILE.rerun (replaced by each recorded run) keeps every task's twelve args, priority and place in the"
          + " program, the run's settings and its final state, so `vyre replay --rerun FILE` can run it again and compare."})
  Path recordFile;

  @Option(names = "--record-capacity", paramLabel = "N",
      description = "Records the replay log holds; once full, each new one overwrites the oldest (default: one per task).")
  Long recordCapacity;

  @Option(names = "--force", description = "Replace the replay log --record names, and its FILE.rerun, when it exists.")
  boolean force;

  /** The longest --timeout whose nanoseconds fit a long (292 years). */
  static final long MAX_TIMEOUT_SECONDS = Long.MAX_VALUE / 1_000_000_000L;
  /** How long a run's kernel is given to exit once the run is over. */
  static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(5);

  @Override
  public Integer call() throws Exception {
    if (timeoutSeconds < 1 || timeoutSeconds > MAX_TIMEOUT_SECONDS) {
      throw InputException.of("--timeout", timeoutSeconds + " seconds is outside 1.." + MAX_TIMEOUT_SECONDS,
          "pass how many seconds to wait for the next task to end, e.g. 30");
    }
    if (recordCapacity != null && recordFile == null) {
      throw InputException.of("--record-capacity", "there is no log to size without --record", "add --record FILE, or drop it");
    }
    if (force && recordFile == null) {
      throw InputException.of("--force", "there is no log to replace without --record", "add --record FILE, or drop it");
    }
    // Before the program is read: a directory or a missing directory here is the person's to fix, not the disk's.
    OutputFiles.requireWritable("--record", recordFile);
    refuseAnExistingLog();
    String text;
    String slotProgram = "pass a slot program (text, one task per line, e.g. examples/hello.vslot)";
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw InputException.of(file.toString(), "no such file", "pass the path of a slot program, e.g. examples/hello.vslot");
    } catch (CharacterCodingException e) {
      throw InputException.of(file.toString(), "not UTF-8 text", slotProgram);
    } catch (IOException e) {
      if (Files.isDirectory(file)) {
        throw InputException.of(file.toString(), "is a directory", slotProgram);
      }
      throw InputException.of(file.toString(), "cannot read: " + e.getMessage(), "check the file's permissions");
    }
    List<Task> tasks = SlotProgram.parse(file.toString(), text);
    PrintStream out = System.out;
    if (slots < 1 || slots > SlotLayout.MAX_ENCODED_RING_SLOTS) {
      throw InputException.of("--slots", slots + " slots is outside 1.." + SlotLayout.MAX_ENCODED_RING_SLOTS,
          "pass a ring size between 1 and " + SlotLayout.MAX_ENCODED_RING_SLOTS + " (default 1024)");
    }
    // The ring is split among the priority levels; a level the program uses must get a slot.
    int[] offsets = ControlLayout.defaultPriorityOffsets(slots);
    for (Task task : tasks) {
      int level = task.priority().level();
      if (offsets[level + 1] == offsets[level]) {
        throw InputException.of("--slots", slots + " slots leave " + task.priority() + " tasks no slot (the ring is split"
            + " among the " + ControlLayout.PRIORITY_LEVELS + " priority levels)", "pass --slots "
            + ControlLayout.PRIORITY_LEVELS + " or more");
      }
    }
    // Opened first, so a log that cannot be written stops the run before anything is published.
    if (recordCapacity != null && (recordCapacity < 1 || recordCapacity > ReplayLogFormat.MAX_REPLAY_RECORDS)) {
      throw InputException.of("--record-capacity", recordCapacity + " records is outside 1.." + ReplayLogFormat.MAX_REPLAY_RECORDS,
          "pass a capacity between 1 and " + ReplayLogFormat.MAX_REPLAY_RECORDS + " (a full log overwrites its oldest records)");
    }
    // One record per task by default, up to the format's limit (then the oldest are overwritten).
    long logCapacity = recordCapacity != null ? recordCapacity : Math.clamp(tasks.size(), 1, ReplayLogFormat.MAX_REPLAY_RECORDS);
    TaskEnds ends = new TaskEnds(tasks.size());
    try (RingLog log = recordFile == null ? null : newLog(logCapacity);
        Megakernel kernel = kernel(backendOption.backend, device, slots, tenants, observables);
        WorkerGroupLoop policy = WorkerGroupLoop.attach(kernel, tasks.size(),
            backendOption.verbose ? line -> System.err.println("vyre: " + line) : line -> {});
        // After the kernel, whose builder checks the settings the sidecar keeps.
        RerunSidecar sidecar = log == null ? null : RerunSidecar.create(RerunSidecar.pathFor(recordFile),
            new RerunSidecar.Header(log.capacity(), timeoutSeconds, tasks.size(), slots, tenants, observables));
        LiveDashboard dashboard = LiveDashboard.start(kernel, watchMillis, System.err);
        // Closed first: after an exception it records what ended while the kernel still runs.
        TaskRecorder recorder = log == null ? null : TaskRecorder.start(log, sidecar, tasks, ends, kernel::controlSnapshot)) {
      if (recorder != null && recorder.exiting()) {
        // Ctrl-C or SIGTERM came before the run began: nothing published, the log holds no record.
        return ShutdownHooks.INTERRUPTED_STATUS;
      }
      if (backendOption.verbose) {
        System.err.println("vyre: " + kernel.backendReason() + "; " + kernel.describe());
      }
      List<TaskResult> results = Arrays.asList(publishAndWait(kernel, tasks, ends, recorder, Duration.ofSeconds(timeoutSeconds)));
      dashboard.close();
      DebugLogLayout.Contents debugLog = kernel.debugLog();
      ShutdownReport report = kernel.shutdown(SHUTDOWN_WAIT);
      if (recorder != null) {
        recorder.finish(report.finalControl());
      }
      print(out, kernel, tasks, results, report, debugLog);
      if (recorder != null) {
        out.printf("recorded     %d tasks in %s (for a re-run: %s)%n", recorder.recorded(), recordFile, sidecar.path());
      }
      boolean allDone = results.stream().allMatch(r -> r != null && r.status() == SlotStatus.DONE);
      return allDone ? 0 : 1;
    }
  }

  /** A log holds the only record of a run: recording over one takes --force (an empty file, as mktemp leaves, holds none). */
  private void refuseAnExistingLog() {
    long size;
    try {
      size = recordFile == null || force || !Files.exists(recordFile) ? 0 : Files.size(recordFile);
    } catch (IOException e) {
      throw InputException.of("--record", recordFile + " cannot be read: " + e.getMessage(), "check the file's permissions");
    }
    if (size > 0) {
      throw InputException.of("--record", recordFile + " already exists (" + size + " bytes), and a recorded run never"
          + " overwrites a log", "pass --force to replace it and " + RerunSidecar.pathFor(recordFile) + ", or choose another file");
    }
  }

  /** The run's replay log: a new file, the old one removed first with --force. */
  private RingLog newLog(long capacity) {
    if (force) {
      try {
        Files.deleteIfExists(recordFile);
      } catch (IOException e) {
        throw InputException.of("--record", recordFile + " cannot be replaced: " + e.getMessage(),
            "check the permissions of its directory");
      }
    }
    return RingLog.create(recordFile, capacity);
  }

  /** The kernel a run uses; a re-run ({@link ReplayRerun}) builds it from the recorded settings. */
  static Megakernel kernel(String backend, Integer device, int slots, int tenants, int observables) {
    MegakernelBuilder builder = Megakernel.builder().backend(backend).slots(slots).tenants(tenants).observables(observables);
    if (device != null) {
      builder.device(device);
    }
    return builder.bootstrap();
  }

  /**
   * Publishes {@code tasks} in program order and waits for them to end, handing each to
   * {@code recorder} (when there is one) as it ends; gives up once no task has ended for
   * {@code idleTimeout}. Closes {@code ends} and returns how each task ended, null for one that did
   * not finish (its future failed, or it had not ended when the run gave up).
   */
  static TaskResult[] publishAndWait(Megakernel kernel, List<Task> tasks, TaskEnds ends, TaskRecorder recorder,
      Duration idleTimeout) throws InterruptedException {
    EpochWatch epochs = recorder == null ? null : new EpochWatch(kernel::epoch);
    for (int i = 0; i < tasks.size(); i++) {
      boolean epochWriter = false;
      if (recorder != null) {
        // Before the publish: a run abandoned from now on records this task (as never finished).
        recorder.publishing(i, TaskRecorder.wallClockNanos(), epochs.beforePublish());
        epochWriter = epochs.publishing(tasks.get(i));
      }
      CompletableFuture<TaskResult> future;
      try {
        future = kernel.submit(tasks.get(i));
      } catch (RuntimeException e) {
        if (recorder != null) {
          recorder.refused(i);
          if (epochWriter) {
            epochs.published(null);
          }
        }
        throw e;
      }
      if (epochWriter) {
        epochs.published(future);
      }
      ends.watch(i, future);
      if (ends.available()) {
        take(ends, recorder);
      }
    }
    long idleNanos = idleTimeout.toNanos();
    long lastEnd = System.nanoTime();
    while (!ends.allTaken() && !ends.isClosed()) {
      long now = System.nanoTime();
      long left = lastEnd + idleNanos - now;
      if (left <= 0) {
        break;
      }
      long wait = recorder == null ? left : Math.min(left, recorder.nanosUntilSyncDue(now));
      if (ends.await(wait)) {
        take(ends, recorder);
        lastEnd = System.nanoTime();
      } else if (recorder != null) {
        recorder.syncIfDue();
      }
    }
    // Tasks that ended as the wait gave up still count as ended.
    take(ends, recorder);
    return ends.close();
  }

  private static void take(TaskEnds ends, TaskRecorder recorder) {
    if (recorder != null) {
      recorder.recordEnded();
    } else {
      ends.takeAll();
    }
  }

  private void print(PrintStream out, Megakernel kernel, List<Task> tasks, List<TaskResult> results, ShutdownReport report, DebugLogLayout.Contents debugLog) {
    MemorySegment control = MemorySegment.ofArray(report.finalControl());
    out.printf("backend      %s%n", kernel.backendName());
    out.printf("tasks        %d%n", tasks.size());
    out.printf("done_count   %d%n", ControlLayout.readDoneCount(control));
    out.printf("fault_count  %d%n", ControlLayout.readWord(control, ControlLayout.FAULT_COUNT));
    out.printf("epoch        %d%n", ControlLayout.readEpoch(control));
    StringBuilder metrics = new StringBuilder();
    for (long[] metric : ControlLayout.readMetrics(control)) {
      metrics.append(' ').append(Opcodes.name((int) metric[0])).append('=').append(metric[1]);
    }
    out.printf("metrics     %s%n", metrics.length() == 0 ? " (none)" : metrics);
    out.println("observables");
    long observableCount = ControlLayout.observableCount(control);
    boolean any = false;
    for (long i = 0; i < observableCount; i++) {
      long value = ControlLayout.readObservable(control, i);
      if (value != 0) {
        out.printf("  [%d] (word %d) = %d (0x%x)%n", i, ControlLayout.OBSERVABLE_BASE + i, value, value);
        any = true;
      }
    }
    if (!any) {
      out.println("  (all zero)");
    }
    for (DebugLogLayout.DebugRecord record : debugLog.records()) {
      out.printf("printf       fmt=%d args=(%d, %d) slot_base=%d%n", record.fmtId(), record.a(), record.b(), record.c());
    }
    if (debugLog.dropped() > 0) {
      out.printf("printf       %d more not kept: the debug log holds the first %d records of a run%n", debugLog.dropped(),
          DebugLogLayout.RECORD_CAPACITY);
    }
    for (int i = 0; i < tasks.size(); i++) {
      TaskResult result = results.get(i);
      if (result == null) {
        out.printf("task %d %s: did not finish%n", i + 1, Opcodes.name(tasks.get(i).opcode()));
      } else if (result.status() != SlotStatus.DONE) {
        out.printf("task %d %s: %s (%s)%n", i + 1, Opcodes.name(tasks.get(i).opcode()), result.status(), result.fault().description());
      }
    }
    for (ShutdownReport.InFlight slot : report.inFlight()) {
      out.printf("in flight    slot %d %s %s%n", slot.slot(), Opcodes.name(slot.opcode()), slot.status());
    }
  }
}
