package dev.vyre.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.driver.error.InputException;
import dev.vyre.observe.replay.DamagedRecord;
import dev.vyre.observe.replay.ReplayRecord;
import dev.vyre.observe.replay.ReplayScan;
import dev.vyre.observe.replay.RerunEntry;
import dev.vyre.observe.replay.RerunSidecar;
import dev.vyre.observe.replay.RingLog;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotStatus;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code vyre replay FILE --rerun}: a run recorded by {@code vyre run --record FILE} published
 * again on a fresh megakernel (any backend) from its log and {@link RerunSidecar}, then compared
 * word for word with how it ended: each task's end (DONE, FAULT or WAIT_IO, from the record's
 * failure evidence) and the final DONE_COUNT, FAULT_COUNT, EPOCH and observable words. The tasks
 * are published as {@code vyre run} published them ({@link RunCommand#publishAndWait}: in program
 * order, without waiting between them, with the recorded idle timeout), on a kernel with the
 * recorded slots, tenants and observables, so a program whose result does not depend on how its
 * tasks race compares equal; one whose tasks race (two stores to one word in flight together) may
 * legitimately differ.
 */
final class ReplayRerun {

  /** Differences (and tasks that never ended) a report lists at most; its counts cover them all. */
  static final int SHOWN = 20;

  private static final String RECORD_AGAIN = "record the program again into a new file with `vyre run --record FILE PROGRAM`,"
      + " which writes FILE" + RerunSidecar.SUFFIX + " beside the log";

  /** A task as recorded: where its record is in the log and how it ended, null when it never did. */
  private record Recorded(Task task, int record, SlotStatus end) {}

  /** A task that ended differently: {@code got} null when it did not finish in the re-run. Tasks count from 1, as vyre run prints them. */
  record TaskDifference(int task, int record, int opcode, SlotStatus expected, SlotStatus got) {}

  /** A control word that ended differently (u32 bit patterns). */
  record WordDifference(String name, int word, int expected, int got) {}

  /** A task that had not ended when the recorded run finished: listed, not compared. */
  record Unended(int task, int record, int opcode) {}

  private final Path log;
  private final Path sidecarPath;
  private final RerunSidecar.Header settings;
  private final RerunSidecar.FinalState recordedEnd;
  /** In program order. */
  private final Recorded[] tasks;

  private ReplayRerun(Path log, Path sidecarPath, RerunSidecar.Header settings, RerunSidecar.FinalState recordedEnd, Recorded[] tasks) {
    this.log = log;
    this.sidecarPath = sidecarPath;
    this.settings = settings;
    this.recordedEnd = recordedEnd;
    this.tasks = tasks;
  }

  /**
   * Reads the log and its sidecar and puts the run back in program order.
   *
   * @throws InputException when the sidecar is missing (a log recorded before vyre run wrote one),
   *     unreadable or not this log's, when the recorded run did not finish, or when the log wrapped
   *     and lost some of the run's tasks
   */
  static ReplayRerun load(Path log) {
    ReplayScan scan = RingLog.read(log);
    Path sidecarPath = RerunSidecar.pathFor(log);
    if (!Files.isRegularFile(sidecarPath)) {
      throw InputException.of(sidecarPath.toString(), (Files.exists(sidecarPath) ? "not a regular file" : "no such file")
          + ": the replay log " + log + " has no rerun sidecar, so it cannot be re-run (a log record keeps 4 of a task's"
          + " 12 args and no final state; logs recorded before vyre run wrote the sidecar have none)", RECORD_AGAIN);
    }
    RerunSidecar.Contents sidecar = RerunSidecar.read(sidecarPath);
    RerunSidecar.Header settings = sidecar.header();
    if (settings.capacity() != scan.capacity()) {
      throw mismatch(sidecarPath, "it describes a log of " + settings.capacity() + " records, and " + log + " holds " + scan.capacity());
    }
    if (sidecar.finalState() == null) {
      throw InputException.of(sidecarPath.toString(), "the recorded run did not finish (it was killed, interrupted or stopped"
          + " on an error), so there is no final state to compare a re-run with", "record the program again and let the run finish");
    }
    if (settings.timeoutSeconds() < 1 || settings.timeoutSeconds() > RunCommand.MAX_TIMEOUT_SECONDS) {
      throw mismatch(sidecarPath, "its idle timeout of " + Long.toUnsignedString(settings.timeoutSeconds()) + " seconds is damaged");
    }
    DamagedRecord torn = scan.tornTail();
    if (torn != null) {
      throw InputException.of(log.toString(), "its last record, " + torn.index() + " at byte " + torn.offset() + ", is torn ("
          + torn.problem() + "), so a task of the run is missing and a partial run cannot be compared", RECORD_AGAIN);
    }
    long taskCount = Integer.toUnsignedLong(settings.tasks());
    List<ReplayRecord> records = scan.records();
    if (records.size() < taskCount) {
      throw InputException.of(log.toString(), "holds " + records.size() + " records of the recorded run's " + taskCount
          + " tasks: the log (" + scan.capacity() + " records) wrapped and overwrote the oldest, and a partial run cannot be"
          + " compared", "record the program again with --record-capacity of at least " + taskCount
          + " (the default is one record per task), into a new file");
    }
    Recorded[] tasks = new Recorded[(int) taskCount];
    for (int i = 0; i < records.size(); i++) {
      ReplayRecord record = records.get(i);
      long index = scan.indices().get(i);
      RerunEntry entry = sidecar.entries().get((int) index);
      if (entry == null || !entry.describes(record.slot())) {
        throw mismatch(sidecarPath, "record #" + i + " (index " + index + ") of " + log + (entry == null ? " has no entry in it"
            : " is not the task of its entry") + "; the log holds records of another run or the sidecar is another log's");
      }
      if (tasks[entry.taskIndex()] != null) {
        throw mismatch(sidecarPath, "records #" + tasks[entry.taskIndex()].record() + " and #" + i + " are both task "
            + (entry.taskIndex() + 1));
      }
      tasks[entry.taskIndex()] = new Recorded(entry.task(), i, end(record));
    }
    // Every record is a distinct task below the task count and there are at least as many: one each.
    return new ReplayRerun(log, sidecarPath, settings, sidecar.finalState(), tasks);
  }

  private static InputException mismatch(Path sidecarPath, String problem) {
    return InputException.of(sidecarPath.toString(), "does not match its replay log: " + problem, RECORD_AGAIN);
  }

  /** How a recorded task ended: DONE without evidence, else the evidence's final status; null when it never ended. */
  private static SlotStatus end(ReplayRecord record) {
    if (record.failure() == null) {
      return SlotStatus.DONE;
    }
    SlotStatus status = SlotStatus.of(record.failure().slotStatus());
    return status.isFinal() ? status : null;
  }

  /** Publishes the run again on {@code backend} and compares how it ends with how the recorded run ended. */
  Report run(String backend) throws InterruptedException {
    List<Task> program = Arrays.stream(tasks).map(Recorded::task).toList();
    try (Megakernel kernel = RunCommand.kernel(backend, null, settings.slots(), settings.tenants(), settings.observables())) {
      TaskResult[] results = RunCommand.publishAndWait(kernel, program, new TaskEnds(program.size()), null,
          Duration.ofSeconds(settings.timeoutSeconds()));
      RerunSidecar.FinalState got = RerunSidecar.FinalState.of(kernel.shutdown(RunCommand.SHUTDOWN_WAIT).finalControl(),
          settings.observables());
      List<Unended> unended = new ArrayList<>();
      List<TaskDifference> taskDifferences = new ArrayList<>();
      for (int i = 0; i < tasks.length; i++) {
        Recorded recorded = tasks[i];
        SlotStatus status = results[i] == null ? null : results[i].status();
        if (recorded.end() == null) {
          unended.add(new Unended(i + 1, recorded.record(), recorded.task().opcode()));
        } else if (status != recorded.end()) {
          taskDifferences.add(new TaskDifference(i + 1, recorded.record(), recorded.task().opcode(), recorded.end(), status));
        }
      }
      return new Report(kernel.backendName(), unended, taskDifferences, compareWords(recordedEnd, got));
    }
  }

  private static List<WordDifference> compareWords(RerunSidecar.FinalState expected, RerunSidecar.FinalState got) {
    List<WordDifference> differences = new ArrayList<>();
    compare(differences, "done_count", ControlLayout.DONE_COUNT, expected.doneCount(), got.doneCount());
    compare(differences, "fault_count", ControlLayout.FAULT_COUNT, expected.faultCount(), got.faultCount());
    compare(differences, "epoch", ControlLayout.EPOCH, expected.epoch(), got.epoch());
    for (int i = 0; i < expected.observableCount(); i++) {
      compare(differences, "observable " + i, ControlLayout.observableWord(i), expected.observable(i), got.observable(i));
    }
    return differences;
  }

  private static void compare(List<WordDifference> out, String name, int word, int expected, int got) {
    if (expected != got) {
      out.add(new WordDifference(name, word, expected, got));
    }
  }

  /** How a re-run compared. */
  final class Report {

    private final String backend;
    private final List<Unended> unended;
    private final List<TaskDifference> taskDifferences;
    private final List<WordDifference> wordDifferences;

    private Report(String backend, List<Unended> unended, List<TaskDifference> taskDifferences, List<WordDifference> wordDifferences) {
      this.backend = backend;
      this.unended = unended;
      this.taskDifferences = taskDifferences;
      this.wordDifferences = wordDifferences;
    }

    /** Whether every compared task and word ended as recorded. */
    boolean identical() {
      return taskDifferences.isEmpty() && wordDifferences.isEmpty();
    }

    void print(PrintWriter out) {
      out.printf("log          %s (sidecar %s)%n", log, sidecarPath);
      out.printf("rerun        %d tasks on %s: %d slots, %d tenants, %d observables, timeout %d s%n", tasks.length, backend,
          Integer.toUnsignedLong(settings.slots()), Integer.toUnsignedLong(settings.tenants()), settings.observables(),
          settings.timeoutSeconds());
      for (Unended task : unended.subList(0, Math.min(SHOWN, unended.size()))) {
        out.printf("never ended  task %d %s (record #%d) had not ended when the recorded run finished: not compared%n", task.task(),
            Opcodes.name(task.opcode()), task.record());
      }
      if (unended.size() > SHOWN) {
        out.printf("never ended  %d more%n", unended.size() - SHOWN);
      }
      out.printf("compared     %d task ends; done_count, fault_count, epoch and %d observable words%n", tasks.length - unended.size(),
          settings.observables());
      if (identical()) {
        out.println("result       identical");
        return;
      }
      int total = taskDifferences.size() + wordDifferences.size();
      out.printf("result       %d difference%s: %d in task ends, %d in final words%s%n", total, total == 1 ? "" : "s",
          taskDifferences.size(), wordDifferences.size(), total > SHOWN ? "; the first " + SHOWN + ":" : "");
      int shown = 0;
      for (TaskDifference d : taskDifferences) {
        if (shown++ == SHOWN) {
          return;
        }
        out.printf("  task %d %s (record #%d): expected %s, got %s%n", d.task(), Opcodes.name(d.opcode()), d.record(), d.expected(),
            d.got() == null ? "did not finish" : d.got());
      }
      for (WordDifference d : wordDifferences) {
        if (shown++ == SHOWN) {
          return;
        }
        out.printf("  %s (word %d): expected %s, got %s%n", d.name(), d.word(), word(d.expected()), word(d.got()));
      }
    }

    private static String word(int value) {
      return Integer.toUnsignedString(value) + " (0x" + Integer.toHexString(value) + ")";
    }

    /**
     * The report as JSON, in the manner of {@code vyre replay --json}: snake_case, u32 values
     * unsigned, each list its first {@link #SHOWN} with a count of them all.
     */
    ObjectNode json() {
      ObjectNode json = Json.object();
      json.put("path", log.toString());
      json.put("sidecar", sidecarPath.toString());
      json.put("backend", backend);
      json.put("tasks", tasks.length);
      json.put("slots", Integer.toUnsignedLong(settings.slots()));
      json.put("tenants", Integer.toUnsignedLong(settings.tenants()));
      json.put("observables", settings.observables());
      json.put("timeout_s", settings.timeoutSeconds());
      json.put("identical", identical());
      json.put("never_ended_count", unended.size());
      ArrayNode never = json.putArray("never_ended");
      for (Unended task : unended.subList(0, Math.min(SHOWN, unended.size()))) {
        taskEntry(never, task.task(), task.record(), task.opcode());
      }
      json.put("task_difference_count", taskDifferences.size());
      ArrayNode taskArray = json.putArray("task_differences");
      for (TaskDifference d : taskDifferences.subList(0, Math.min(SHOWN, taskDifferences.size()))) {
        ObjectNode entry = taskEntry(taskArray, d.task(), d.record(), d.opcode());
        entry.put("expected", d.expected().name());
        if (d.got() == null) {
          entry.putNull("got");
        } else {
          entry.put("got", d.got().name());
        }
      }
      json.put("word_difference_count", wordDifferences.size());
      ArrayNode wordArray = json.putArray("word_differences");
      for (WordDifference d : wordDifferences.subList(0, Math.min(SHOWN, wordDifferences.size()))) {
        ObjectNode entry = wordArray.addObject();
        entry.put("name", d.name());
        entry.put("word", d.word());
        entry.put("expected", Integer.toUnsignedLong(d.expected()));
        entry.put("got", Integer.toUnsignedLong(d.got()));
      }
      return json;
    }

    /** A task's line in a JSON list: where it was in the program and the log, and its opcode. */
    private static ObjectNode taskEntry(ArrayNode list, int task, int record, int opcode) {
      ObjectNode entry = list.addObject();
      entry.put("task", task);
      entry.put("record", record);
      entry.put("opcode", Integer.toUnsignedLong(opcode));
      entry.put("opcode_name", Opcodes.name(opcode));
      return entry;
    }
  }
}
