package dev.vyre.observe.telemetry;

/**
 * Count-min sketches of one ring snapshot (vyre's {@code SketchTelemetry}): opcodes of every slot,
 * opcodes of active slots, tenants, raw statuses, and the control block's dispatch metrics
 * (weighted by count), plus total and active slot counts. Rebuilding reuses the counter storage.
 */
public final class SketchTelemetry {

  private static final int INITIAL_DEPTH = 1;
  private static final int INITIAL_WIDTH = 1;

  private final CountMinSketch ringOpcode = new CountMinSketch(INITIAL_DEPTH, INITIAL_WIDTH);
  private final CountMinSketch activeOpcode = new CountMinSketch(INITIAL_DEPTH, INITIAL_WIDTH);
  private final CountMinSketch tenant = new CountMinSketch(INITIAL_DEPTH, INITIAL_WIDTH);
  private final CountMinSketch status = new CountMinSketch(INITIAL_DEPTH, INITIAL_WIDTH);
  private final CountMinSketch dispatchMetrics = new CountMinSketch(INITIAL_DEPTH, INITIAL_WIDTH);
  private long totalSlots;
  private long activeSlots;

  /** Empty 1x1 sketches; fill with {@link RingTelemetry#sketchInto}. */
  public SketchTelemetry() {}

  void rebuild(RingTelemetry telemetry, int depth, int width) {
    ringOpcode.resetShape(depth, width);
    activeOpcode.resetShape(depth, width);
    tenant.resetShape(depth, width);
    status.resetShape(depth, width);
    dispatchMetrics.resetShape(depth, width);
    long active = 0;
    int slots = telemetry.slotCount();
    for (int i = 0; i < slots; i++) {
      long opcode = Integer.toUnsignedLong(telemetry.slotOpcode(i));
      int raw = telemetry.slotStatusRaw(i);
      ringOpcode.add(opcode, 1);
      tenant.add(Integer.toUnsignedLong(telemetry.slotTenant(i)), 1);
      status.add(Integer.toUnsignedLong(raw), 1);
      if (RingStatus.isActiveRaw(raw)) {
        activeOpcode.add(opcode, 1);
        active++;
      }
    }
    ControlSnapshot control = telemetry.control();
    for (int i = 0; i < control.metricCount(); i++) {
      ControlSnapshot.Metric metric = control.metric(i);
      dispatchMetrics.add(metric.index(), metric.count());
    }
    totalSlots = slots;
    activeSlots = active;
  }

  /** Opcode of every slot. */
  public CountMinSketch ringOpcode() {
    return ringOpcode;
  }

  /** Opcode of active slots only. */
  public CountMinSketch activeOpcode() {
    return activeOpcode;
  }

  /** Tenant id of every slot. */
  public CountMinSketch tenant() {
    return tenant;
  }

  /** Raw status word of every slot. */
  public CountMinSketch status() {
    return status;
  }

  /** Control-block metric index, weighted by its count. */
  public CountMinSketch dispatchMetrics() {
    return dispatchMetrics;
  }

  public long totalSlots() {
    return totalSlots;
  }

  public long activeSlots() {
    return activeSlots;
  }
}
