package dev.vyre.observe.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TelemetrySampleTest {

  private static final MegakernelRuntimeCounters COUNTERS =
      new MegakernelRuntimeCounters(4, 2, 1, 250_000, 5000, 7500, 7, 1, 12, 6, 5, 1, 0);

  @Test
  void firstSampleIsNeverStalled() {
    TelemetrySample sample = new TelemetrySample(1, 0, COUNTERS, null, 0, 0, 0, true, 0);
    assertFalse(sample.stalled());
    assertEquals("#1 done=7 (+?) queue=2/4 idle=25.0% frontier=50.00% occupancy=75.00% skew=6 requeue=1 fault=0"
        + " heartbeat=+0 ok", sample.dashboardLine());
  }

  @Test
  void dashboardShowsASuspectedStall() {
    TelemetrySample sample = new TelemetrySample(3, 0, COUNTERS, new MegakernelWatchdogSnapshot(0, 2, 0, 1, 250_000, true),
        9, 0, 0, true, 2);
    assertTrue(sample.stalled());
    assertEquals("#3 done=7 (+0) queue=2/4 idle=25.0% frontier=50.00% occupancy=75.00% skew=6 requeue=1 fault=0"
        + " heartbeat=+0 STALL? (2 samples)", sample.dashboardLine());
    assertEquals("#2 done=7 (+3) queue=2/4 idle=25.0% frontier=50.00% occupancy=75.00% skew=6 requeue=1 fault=0"
        + " heartbeat=+4 exited", new TelemetrySample(2, 0, COUNTERS, new MegakernelWatchdogSnapshot(3, 2, 0, 1, 0, false),
        9, 4, 0, false, 0).dashboardLine());
  }
}
