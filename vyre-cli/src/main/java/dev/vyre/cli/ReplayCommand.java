package dev.vyre.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.driver.error.InputException;
import dev.vyre.observe.replay.RecordedSlot;
import dev.vyre.observe.replay.ReplayFailureEvidence;
import dev.vyre.observe.replay.ReplayRecord;
import dev.vyre.observe.replay.ReplayScan;
import dev.vyre.observe.replay.RingLog;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotStatus;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code vyre replay FILE}: prints a replay log ({@code VRRL0001}, docs/PROTOCOL.md), oldest record
 * first, for an operator to see what a run published and which tasks failed; with {@code --rerun},
 * runs the recorded run again and compares ({@link ReplayRerun}). Reads the files only.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = {"Print a replay log (VRRL0001, e.g. from `vyre run --record FILE`): its records oldest first, each with"
        + " its slot, tenant, opcode, first four args, EPOCH at publish and any failure evidence.",
        "With --rerun, run the recorded run again on a fresh megakernel from the log and its sidecar FILE.rerun (every task"
            + " with its twelve args, in program order, with the recorded slots, tenants, observables and timeout) and compare"
            + " word for word: each task's end (DONE, FAULT, WAIT_IO) and the final DONE_COUNT, FAULT_COUNT, EPOCH and"
            + " observable words. Tasks count from 1, as vyre run prints them; record #N is the row `vyre replay FILE` prints."
            + " Tasks that race (two stores to one word in flight together) may legitimately end differently."},
    exitCodeListHeading = "Exit status:%n", exitCodeList = {"0:The log was printed, or the re-run ended identically.",
        "1:The re-run ended differently.",
        "2:An error: a log or sidecar that cannot be read, does not match, or cannot be re-run (the log wrapped, the run"
            + " did not finish)."})
final class ReplayCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(paramLabel = "FILE", description = "The replay log.")
  Path file;

  @Option(names = "--json", description = "Print the log (or the re-run's comparison) as one JSON object.")
  boolean json;

  @Option(names = "--rerun", description = "Run the recorded run again and compare it with the recording.")
  boolean rerun;

  @Option(names = "--backend", paramLabel = "BACKEND",
      description = "The backend of --rerun: reference | cuda | auto (default: reference).")
  String backend;

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (!Files.isRegularFile(file)) {
      String problem = Files.isDirectory(file) ? "is a directory" : Files.exists(file) ? "not a regular file" : "no such file";
      throw InputException.of(file.toString(), problem, "pass the path of a replay log, e.g. one written by vyre run --record");
    }
    if (backend != null && !rerun) {
      throw InputException.of("--backend", "chooses the backend of a re-run, and there is none without --rerun",
          "add --rerun, or drop --backend");
    }
    PrintWriter out = spec.commandLine().getOut();
    if (rerun) {
      ReplayRerun.Report report = ReplayRerun.load(file).run(backend != null ? backend : "reference");
      if (json) {
        out.println(Json.MAPPER.writeValueAsString(report.json()));
      } else {
        report.print(out);
      }
      out.flush();
      return report.identical() ? 0 : 1;
    }
    ReplayScan scan = RingLog.read(file);
    if (json) {
      out.println(Json.MAPPER.writeValueAsString(json(scan)));
    } else {
      print(out, scan);
    }
    out.flush();
    return 0;
  }

  private void print(PrintWriter out, ReplayScan scan) {
    out.printf("log          %s%n", file);
    out.printf("capacity     %d records, cursor %d%n", scan.capacity(), scan.cursor());
    out.printf("records      %d written, %d never written%n", scan.records().size(), scan.emptyRecords());
    if (scan.records().isEmpty()) {
      return;
    }
    int argsWidth = "args[0..4]".length();
    for (ReplayRecord record : scan.records()) {
      argsWidth = Math.max(argsWidth, args(record.slot()).length());
    }
    String row = "%6s  %-20s %10s %6s  %-12s %-" + argsWidth + "s %10s  %s%n";
    out.printf(row, "#", "timestamp_ns", "slot", "tenant", "opcode", "args[0..4]", "epoch", "failure");
    int index = 0;
    for (ReplayRecord record : scan.records()) {
      RecordedSlot slot = record.slot();
      out.printf(row, index++, Long.toUnsignedString(slot.timestampNs()), Integer.toUnsignedString(slot.slotIdx()),
          Integer.toUnsignedString(slot.tenantId()), Opcodes.name(slot.opcode()), args(slot), Integer.toUnsignedString(slot.epoch()),
          failure(record.failure()));
    }
  }

  private static String args(RecordedSlot slot) {
    return Arrays.stream(slot.args()).mapToObj(Integer::toUnsignedString).collect(Collectors.joining(", ", "[", "]"));
  }

  private static String failure(ReplayFailureEvidence failure) {
    if (failure == null) {
      return "-";
    }
    return "status=" + statusName(failure.slotStatus()) + " class=" + failure.failureClass() + " backend_code="
        + Integer.toUnsignedString(failure.backendErrorCode()) + " digest=0x" + String.format("%016x", failure.outputDigest());
  }

  private static String statusName(int status) {
    SlotStatus decoded = SlotStatus.of(status);
    return decoded == SlotStatus.UNKNOWN ? Integer.toUnsignedString(status) : decoded.name();
  }

  private ObjectNode json(ReplayScan scan) {
    ObjectNode json = Json.object();
    json.put("path", file.toString());
    json.put("capacity", scan.capacity());
    json.put("cursor", scan.cursor());
    json.put("empty_records", scan.emptyRecords());
    ArrayNode records = json.putArray("records");
    for (ReplayRecord record : scan.records()) {
      RecordedSlot slot = record.slot();
      ObjectNode entry = records.addObject();
      entry.set("timestamp_ns", Json.u64Node(slot.timestampNs()));
      entry.put("slot_idx", Integer.toUnsignedLong(slot.slotIdx()));
      entry.put("tenant_id", Integer.toUnsignedLong(slot.tenantId()));
      entry.put("opcode", Integer.toUnsignedLong(slot.opcode()));
      entry.put("opcode_name", Opcodes.name(slot.opcode()));
      ArrayNode args = entry.putArray("args");
      for (int arg : slot.args()) {
        args.add(Integer.toUnsignedLong(arg));
      }
      entry.put("epoch", Integer.toUnsignedLong(slot.epoch()));
      ReplayFailureEvidence failure = record.failure();
      if (failure == null) {
        entry.putNull("failure");
      } else {
        ObjectNode evidence = entry.putObject("failure");
        evidence.put("slot_status", Integer.toUnsignedLong(failure.slotStatus()));
        evidence.put("slot_status_name", statusName(failure.slotStatus()));
        evidence.put("failure_class", failure.failureClass().name());
        evidence.put("backend_error_code", Integer.toUnsignedLong(failure.backendErrorCode()));
        evidence.set("output_digest", Json.u64Node(failure.outputDigest()));
      }
    }
    return json;
  }
}
