package dev.vyre.cli;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.ShutdownReport;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.program.SlotProgram;
import dev.vyre.runtime.replay.ReplayLogFormat;
import dev.vyre.runtime.replay.RingLog;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.DebugLogLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotStatus;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vyre run FILE}: runs a slot program and prints DONE_COUNT, metrics, observables and faults. */
@Command(name = "run", description = "Run a slot program (one task per line, see examples/) on a megakernel.")
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

  @Option(names = "--timeout", defaultValue = "30", description = "Seconds to wait for the program (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  @Option(names = "--watch", arity = "0..1", fallbackValue = "250", paramLabel = "MS",
      description = "Print a live one-line telemetry dashboard to stderr every MS milliseconds (default 250).")
  Long watchMillis;

  @Option(names = "--record", paramLabel = "FILE", description = {
      "Append every task to a replay log (VRRL0001): its slot, tenant, opcode, first four args and the EPOCH when it was",
      "published, with failure evidence for a task that did not finish DONE. `vyre replay FILE` prints it."})
  Path recordFile;

  @Option(names = "--record-capacity", paramLabel = "N",
      description = "Records in a new replay log (default: one per task; an existing log keeps its own capacity).")
  Long recordCapacity;

  @Override
  public Integer call() throws Exception {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw InputException.of(file.toString(), "no such file", "pass the path of a slot program, e.g. examples/hello.vslot");
    } catch (IOException e) {
      throw InputException.of(file.toString(), "cannot read: " + e.getMessage(), "check the file's permissions");
    }
    List<Task> tasks = SlotProgram.parse(file.toString(), text);
    PrintStream out = System.out;
    // Opened first, so a log that cannot be written stops the run before anything is published.
    if (recordCapacity != null && (recordCapacity < 1 || recordCapacity > ReplayLogFormat.MAX_REPLAY_RECORDS)) {
      throw InputException.of("--record-capacity", recordCapacity + " records is outside 1.." + ReplayLogFormat.MAX_REPLAY_RECORDS,
          "pass a capacity between 1 and " + ReplayLogFormat.MAX_REPLAY_RECORDS + " (a full log overwrites its oldest records)");
    }
    // One record per task by default, up to the format's limit (then the oldest are overwritten).
    long logCapacity = recordCapacity != null ? recordCapacity : Math.clamp(tasks.size(), 1, ReplayLogFormat.MAX_REPLAY_RECORDS);
    try (RingLog log = recordFile == null ? null : RingLog.open(recordFile, logCapacity);
        Megakernel kernel = Megakernel.builder().backend(backendOption.backend).slots(slots).tenants(tenants)
        .observables(observables).bootstrap();
        LiveDashboard dashboard = LiveDashboard.start(kernel, watchMillis, System.err)) {
      if (backendOption.verbose) {
        System.err.println("vyre: " + kernel.backendReason() + "; " + kernel.describe());
      }
      List<CompletableFuture<TaskResult>> futures = new ArrayList<>();
      long[] publishedAt = new long[tasks.size()];
      int[] epochAtPublish = new int[tasks.size()];
      for (int i = 0; i < tasks.size(); i++) {
        if (log != null) {
          publishedAt[i] = TaskRecorder.wallClockNanos();
          epochAtPublish[i] = (int) kernel.epoch();
        }
        futures.add(kernel.submit(tasks.get(i)));
      }
      List<TaskResult> results = new ArrayList<>();
      for (CompletableFuture<TaskResult> future : futures) {
        try {
          results.add(future.get(timeoutSeconds, TimeUnit.SECONDS));
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
          results.add(null);
        }
      }
      dashboard.close();
      byte[] debugLog = kernel.debugLogSnapshot();
      ShutdownReport report = kernel.shutdown(Duration.ofSeconds(5));
      print(out, kernel, tasks, results, report, debugLog);
      if (log != null) {
        TaskRecorder.record(log, tasks, results, publishedAt, epochAtPublish, report.finalControl());
        out.printf("recorded     %d tasks in %s%n", tasks.size(), recordFile);
      }
      boolean allDone = results.stream().allMatch(r -> r != null && r.status() == SlotStatus.DONE);
      return allDone ? 0 : 1;
    }
  }

  private void print(PrintStream out, Megakernel kernel, List<Task> tasks, List<TaskResult> results, ShutdownReport report, byte[] debugLog) {
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
    for (DebugLogLayout.DebugRecord record : DebugLogLayout.read(MemorySegment.ofArray(debugLog))) {
      out.printf("printf       fmt=%d args=(%d, %d) slot_base=%d%n", record.fmtId(), record.a(), record.b(), record.c());
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
