package dev.vyre.observe.telemetry;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** JFR event committed for every sample whose watchdog suspects a stalled megakernel. */
@Name("dev.vyre.KernelStall")
@Label("vyre Kernel Stall")
@Category({"vyre", "Telemetry"})
@Description("Work was queued but DONE_COUNT did not move and no slot faulted since the previous sample.")
final class KernelStallEvent extends Event {

  @Label("Kernel")
  String kernel;

  @Label("Queue Depth")
  long queueDepth;

  @Label("Done Count")
  long doneCount;

  @Label("Heartbeat Delta")
  @Description("HEARTBEAT growth since the previous sample: 0 when every worker is stuck")
  long heartbeatDelta;

  @Label("Requeue Slots")
  long requeueSlots;

  @Label("Consecutive Stalled Samples")
  long stalledSamples;
}
