package dev.vyre.cli;

import dev.vyre.cli.conform.Json;
import dev.vyre.cli.telemetry.TelemetryJson;
import dev.vyre.driver.error.InputException;
import dev.vyre.observe.telemetry.ControlSnapshot;
import dev.vyre.observe.telemetry.MegakernelRuntimeCounters;
import dev.vyre.observe.telemetry.RingOccupancy;
import dev.vyre.observe.telemetry.RingSlotSnapshot;
import dev.vyre.observe.telemetry.RingTelemetry;
import dev.vyre.observe.telemetry.WindowTelemetry;
import dev.vyre.runtime.wire.Opcodes;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code vyre telemetry}: offline decoding of control-block and ring snapshots. */
@Command(name = "telemetry", mixinStandardHelpOptions = true, description = "Decode megakernel telemetry snapshots.", subcommands = TelemetryCommand.Decode.class)
final class TelemetryCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code vyre telemetry decode}: the structured view of raw control and ring bytes. */
  @Command(name = "decode", mixinStandardHelpOptions = true, description = {
      "Decode a control block and a ring (raw little-endian bytes, e.g. Megakernel.controlSnapshot() and ringSnapshot()):",
      "slot counts, runtime counters, fairness, active slots and route windows."})
  static final class Decode implements Callable<Integer> {

    private static final int ACTIVE_SLOTS_SHOWN = 20;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--control", required = true, paramLabel = "FILE", description = "The control block (at least 640 bytes).")
    Path controlFile;

    @Option(names = "--ring", required = true, paramLabel = "FILE", description = "The ring (a multiple of 64 bytes).")
    Path ringFile;

    @Option(names = "--window-opcodes", split = ",", paramLabel = "LIST",
        description = "Opcodes whose slots group into route windows by ticket (arg0): names, decimal or 0x hex, comma-separated.")
    List<String> windowOpcodes = List.of();

    @Option(names = "--json", description = "Print telemetry, runtime counters and priority accounting as JSON (docs/CONFORMANCE.md, 'Telemetry').")
    boolean json;

    @Override
    public Integer call() throws IOException {
      RingTelemetry telemetry = RingTelemetry.tryDecodeWithWindowOpcodes(read(controlFile), read(ringFile), opcodes());
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(Json.MAPPER.writeValueAsString(TelemetryJson.decoded(telemetry)));
      } else {
        print(out, telemetry);
      }
      out.flush();
      return 0;
    }

    private int[] opcodes() {
      int[] opcodes = new int[windowOpcodes.size()];
      for (int i = 0; i < opcodes.length; i++) {
        Integer opcode = Opcodes.parse(windowOpcodes.get(i).strip());
        if (opcode == null) {
          throw InputException.of("--window-opcodes", "\"" + windowOpcodes.get(i) + "\" is not an opcode",
              "pass built-in names, decimal or 0x hex u32 values, separated by commas");
        }
        opcodes[i] = opcode;
      }
      return opcodes;
    }

    private static byte[] read(Path file) {
      try {
        return Files.readAllBytes(file);
      } catch (NoSuchFileException e) {
        throw InputException.of(file.toString(), "no such file", "pass a raw snapshot file");
      } catch (IOException e) {
        if (Files.isDirectory(file)) {
          throw InputException.of(file.toString(), "is a directory", "pass a raw snapshot file");
        }
        throw InputException.of(file.toString(), "cannot read: " + e.getMessage(), "check the file's permissions");
      }
    }

    private static void print(PrintWriter out, RingTelemetry telemetry) {
      ControlSnapshot control = telemetry.control();
      RingOccupancy o = telemetry.occupancy();
      MegakernelRuntimeCounters c = telemetry.runtimeCounters();
      row(out, "control", "shutdown=" + control.shutdown() + " done_count=" + control.doneCount() + " epoch=" + control.epoch());
      StringBuilder metrics = new StringBuilder();
      for (ControlSnapshot.Metric metric : control.metrics()) {
        metrics.append(' ').append(Opcodes.name((int) metric.index())).append('=').append(metric.count());
      }
      row(out, "metrics", metrics.isEmpty() ? "(none)" : metrics.substring(1));
      row(out, "occupancy", "empty=" + o.empty() + " published=" + o.published() + " claimed=" + o.claimed() + " done=" + o.done()
          + " wait_io=" + o.waitIo() + " yield=" + o.yieldCount() + " requeue=" + o.requeue() + " fault=" + o.fault()
          + " unknown=" + o.unknown());
      row(out, "queue", "depth=" + c.queueDepth() + " of " + c.totalSlots() + " slots, idle " + c.gpuIdlePpm() + " ppm, frontier "
          + c.frontierDensityBps() + " bps, occupancy " + c.occupancyProxyBps() + " bps");
      row(out, "drain", "drained=" + c.drainedSlots() + " unreclaimed_done=" + c.unreclaimedDoneSlots()
          + " requeue_slots=" + telemetry.priorityAccounting().requeueCount());
      row(out, "fairness", "tenant total=" + c.tenantFairnessTotal() + " skew=" + c.tenantFairnessSkew() + "; priority total="
          + c.priorityFairnessTotal() + " " + Arrays.toString(control.priorityFairness()));
      List<RingSlotSnapshot> active = telemetry.slots().stream().filter(slot -> slot.status().isActive()).toList();
      row(out, "active slots", active.size() + (active.size() > ACTIVE_SLOTS_SHOWN ? " (first " + ACTIVE_SLOTS_SHOWN + " below)" : ""));
      for (RingSlotSnapshot slot : active.subList(0, Math.min(active.size(), ACTIVE_SLOTS_SHOWN))) {
        out.printf("  slot %-8d %-9s %-12s tenant=%d args=[%d, %d, %d]%n", slot.slotIdx(), slot.status(),
            Opcodes.name((int) slot.opcode()), slot.tenantId(), slot.arg0(), slot.arg1(), slot.arg2());
      }
      for (WindowTelemetry w : telemetry.windows()) {
        row(out, "window", "ticket=" + w.ticket() + " opcode=" + Opcodes.name((int) w.opcode()) + " tenant=" + w.tenantId()
            + " required=" + w.requiredSlots() + " lookahead=" + w.lookaheadSlots() + " published=" + w.published()
            + " claimed=" + w.claimed() + " done=" + w.done() + " wait_io=" + w.waitIo() + " yield=" + w.yieldCount()
            + " requeue=" + w.requeue() + " fault=" + w.fault() + (w.isActive() ? " active" : ""));
      }
    }

    private static void row(PrintWriter out, String label, String value) {
      out.printf("%-13s %s%n", label, value);
    }
  }
}
