package dev.vyre.observe.telemetry;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** JFR event committed for every telemetry sample: the runtime counters of one snapshot. */
@Name("dev.vyre.TelemetrySample")
@Label("vyre Telemetry Sample")
@Category({"vyre", "Telemetry"})
@Description("Runtime counters of a megakernel's control block and ring, sampled without stopping it.")
final class TelemetrySampleEvent extends Event {

  @Label("Kernel")
  String kernel;

  @Label("Total Slots")
  long totalSlots;

  @Label("Queue Depth")
  long queueDepth;

  @Label("Idle PPM")
  long gpuIdlePpm;

  @Label("Frontier Density (bps)")
  int frontierDensityBps;

  @Label("Occupancy Proxy (bps)")
  int occupancyProxyBps;

  @Label("Done Count")
  long doneCount;

  @Label("Done Delta")
  long doneDelta;

  @Label("Tenant Fairness Skew")
  long tenantFairnessSkew;

  @Label("Requeue Slots")
  long requeueSlots;

  @Label("Fault Slots")
  long faultSlots;

  @Label("Heartbeat Delta")
  long heartbeatDelta;

  @Label("Suspected Stall")
  boolean stalled;
}
