package dev.vyre.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.driver.error.InputException;
import dev.vyre.observe.replay.DamagedRecord;
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
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code vyre replay FILE}: prints a replay log ({@code VRRL0002} or vyre's {@code VRRL0001},
 * docs/PROTOCOL.md), oldest record first, for an operator to see what a run published and which
 * tasks failed; with {@code --rerun}, runs the recorded run again and compares ({@link ReplayRerun}).
 * Reads the files only. A torn last record (a run killed while writing it) is named in a warning
 * and the rest printed, exit 0; a damaged record elsewhere is an error, exit 2, unless
 * {@code --salvage} asks for the intact records, each damaged one named in a warning.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = {"Print a replay log (VRRL0002 or vyre's VRRL0001, e.g. from `vyre run --record FILE`): its records oldest"
        + " first, each with its slot, tenant, opcode, first four args, EPOCH at publish and any failure evidence.",
        "A torn last record, which a run killed while writing it leaves, is named in a warning on stderr and the intact"
            + " records printed. A record damaged elsewhere (checksum, magic or sequence number wrong) is an error naming it,"
            + " unless --salvage.",
        "With --rerun, run the recorded run again on a fresh megakernel from the log and its sidecar FILE.rerun (every task"
            + " with its twelve args, in program order, with the recorded slots, tenants, observables and timeout) and compare"
            + " word for word: each task's end (DONE, FAULT, WAIT_IO) and the final DONE_COUNT, FAULT_COUNT, EPOCH and"
            + " observable words. Tasks count from 1, as vyre run prints them; record #N is the row `vyre replay FILE` prints."
            + " Tasks that race (two stores to one word in flight together) may legitimately end differently."},
    exitCodeListHeading = "Exit status:%n", exitCodeList = {"0:The log was printed (a torn last record or, with --salvage,"
        + " damaged ones left out and named on stderr), or the re-run ended identically.",
        "1:The re-run ended differently.",
        "2:An error: a log or sidecar that cannot be read, is damaged, does not match, or cannot be re-run (the log"
            + " wrapped, the run did not finish)."})
final class ReplayCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(paramLabel = "FILE", description = "The replay log.")
  Path file;

  @Option(names = "--json", description = "Print the log (or the re-run's comparison) as one JSON object.")
  boolean json;

  @Option(names = "--rerun", description = "Run the recorded run again and compare it with the recording.")
  boolean rerun;

  @Option(names = "--salvage", description = "Print the intact records of a damaged log, leaving out each record whose"
      + " checksum, magic or sequence number is wrong (each named on stderr), rather than refuse the log.")
  boolean salvage;

  /** Damaged records named one by one on stderr at most; --json lists them all. */
  static final int MAX_NAMED_DAMAGED = 20;

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
    if (salvage && rerun) {
      throw InputException.of("--salvage", "leaves damaged records out, and a re-run needs every record of the run",
          "drop --salvage; `vyre replay --salvage FILE` shows which records are intact");
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
    ReplayScan scan = salvage ? RingLog.salvage(file) : RingLog.read(file);
    warn(scan);
    if (json) {
      out.println(Json.MAPPER.writeValueAsString(json(scan)));
    } else {
      print(out, scan);
    }
    out.flush();
    return 0;
  }

  /** What the scan left out, on stderr: each damaged record (up to {@link #MAX_NAMED_DAMAGED}), then a torn last record. */
  private void warn(ReplayScan scan) {
    PrintWriter err = spec.commandLine().getErr();
    List<DamagedRecord> skipped = scan.skipped();
    for (DamagedRecord damaged : skipped.subList(0, Math.min(skipped.size(), MAX_NAMED_DAMAGED))) {
      err.printf("vyre: warning: %s: skipped damaged record %d at byte %d: %s%n", file, damaged.index(), damaged.offset(),
          damaged.problem());
    }
    if (skipped.size() > MAX_NAMED_DAMAGED) {
      err.printf("vyre: warning: %s: skipped %d more damaged records (--json lists them all)%n", file,
          skipped.size() - MAX_NAMED_DAMAGED);
    }
    DamagedRecord torn = scan.tornTail();
    if (torn != null) {
      err.printf("vyre: warning: %s: the last record, %d at byte %d, is torn (%s), as a run killed while writing it leaves;"
          + " kept the %d intact records%n", file, torn.index(), torn.offset(), torn.problem(), scan.records().size());
    }
    err.flush();
  }

  private void print(PrintWriter out, ReplayScan scan) {
    out.printf("log          %s (%s)%n", file, scan.version());
    out.printf("capacity     %d records, cursor %d%n", scan.capacity(), scan.cursor());
    out.printf("records      %d written, %d never written%s%s%n", scan.records().size(), scan.emptyRecords(),
        scan.tornTail() != null ? ", 1 torn" : "", scan.skipped().isEmpty() ? "" : ", " + scan.skipped().size() + " damaged");
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
    json.put("format", scan.version().name());
    json.put("capacity", scan.capacity());
    json.put("cursor", scan.cursor());
    json.put("empty_records", scan.emptyRecords());
    if (scan.tornTail() == null) {
      json.putNull("torn_tail");
    } else {
      json.set("torn_tail", json(scan.tornTail()));
    }
    ArrayNode skipped = json.putArray("skipped");
    scan.skipped().forEach(damaged -> skipped.add(json(damaged)));
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

  private static ObjectNode json(DamagedRecord damaged) {
    ObjectNode json = Json.object();
    json.put("index", damaged.index());
    json.put("offset", damaged.offset());
    json.put("problem", damaged.problem());
    return json;
  }
}
