package dev.vyre.observe.telemetry;

/**
 * One sample of a live kernel: vyre's runtime counters and watchdog verdict, plus the control
 * words vyre lacks (heartbeat, fault count, kernel state; ControlLayout words 156..158).
 *
 * @param sequence 1 for the first sample of a sampler, then consecutive
 * @param nanoTime {@link System#nanoTime()} when the snapshot was taken
 * @param counters vyre's runtime counters of this snapshot
 * @param watchdog vyre's {@code health_since} against the previous sample, or null for the first
 *     sample and after DONE_COUNT moved backwards (a u32 wrap starts a new telemetry epoch)
 * @param heartbeat the kernel's HEARTBEAT word (u32), which a live kernel advances also when idle
 * @param heartbeatDelta heartbeat growth since the previous sample (mod 2^32; 0 for the first)
 * @param faultCount the kernel's FAULT_COUNT word (u32)
 * @param kernelRunning whether KERNEL_STATE says running
 * @param stalledSamples consecutive samples, this one included, whose watchdog suspected a stall
 */
public record TelemetrySample(long sequence, long nanoTime, MegakernelRuntimeCounters counters,
    MegakernelWatchdogSnapshot watchdog, long heartbeat, long heartbeatDelta, long faultCount, boolean kernelRunning,
    long stalledSamples) {

  /** True when the watchdog suspects a stall: work queued, nothing finished, nothing faulted since the last sample. */
  public boolean stalled() {
    return watchdog != null && watchdog.suspectedStall();
  }

  /** The one-line dashboard text: progress, queue, idle, density, fairness, faults and health. */
  public String dashboardLine() {
    MegakernelRuntimeCounters c = counters;
    return String.format(java.util.Locale.ROOT, "#%d done=%d (+%s) queue=%d/%d idle=%.1f%% frontier=%.2f%% occupancy=%.2f%% skew=%d"
            + " requeue=%d fault=%d heartbeat=+%d %s",
        sequence, c.drainedSlots(), watchdog == null ? "?" : Long.toString(watchdog.doneDelta()), c.queueDepth(),
        c.totalSlots(), c.gpuIdlePpm() / 10_000.0, c.frontierDensityBps() / 100.0, c.occupancyProxyBps() / 100.0,
        c.tenantFairnessSkew(), c.requeueSlots(), c.faultSlots(), heartbeatDelta,
        stalled() ? "STALL? (" + stalledSamples + " samples)" : kernelRunning ? "ok" : "exited");
  }
}
