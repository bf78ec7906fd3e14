package dev.vyre.observe.telemetry;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The telemetry view of a control block (vyre's {@code ControlSnapshot}): shutdown flag, DONE_COUNT,
 * EPOCH, the non-zero per-opcode metrics, and the tenant and priority fairness counters. Mutable so
 * that a decoder can refill caller-owned storage without allocating; u32 values are returned as
 * non-negative longs.
 */
public final class ControlSnapshot {

  /** One non-zero per-opcode execution counter: metric index (opcode 0..31) and count. */
  public record Metric(long index, long count) {}

  private boolean shutdown;
  private int doneCount;
  private int epoch;
  private int metricCount;
  private final int[] metricIndex = new int[ControlLayout.METRICS_SLOTS];
  private final int[] metricValue = new int[ControlLayout.METRICS_SLOTS];
  private final int[] tenantFairness = new int[ControlLayout.TENANT_FAIRNESS_SLOTS];
  private final int[] priorityFairness = new int[ControlLayout.PRIORITY_FAIRNESS_SLOTS];

  /** An all-zero snapshot (vyre's {@code Default}). */
  public ControlSnapshot() {}

  /**
   * Decodes a control block into a new snapshot, like vyre's panicking {@code decode}.
   *
   * @throws PipelineException wrapping the strict error, with vyre's panic text
   */
  public static ControlSnapshot decode(byte[] control) {
    ControlSnapshot out = new ControlSnapshot();
    decodeInto(control, out);
    return out;
  }

  /** Decodes into caller-owned storage, like vyre's panicking {@code decode_into}; see {@link #decode}. */
  public static void decodeInto(byte[] control, ControlSnapshot out) {
    try {
      tryDecodeInto(MemorySegment.ofArray(control), out);
    } catch (PipelineException e) {
      throw TelemetryErrors.controlDecodeFailed(e);
    }
  }

  /**
   * Strictly decodes into caller-owned storage; on error {@code out} is left untouched.
   *
   * @throws PipelineException ({@code Backend}) when the buffer is shorter than 640 bytes or not a
   *     whole number of words
   */
  public static void tryDecodeInto(byte[] control, ControlSnapshot out) {
    tryDecodeInto(MemorySegment.ofArray(control), out);
  }

  /** {@link #tryDecodeInto(byte[], ControlSnapshot)} over any segment, live kernel memory included. */
  public static void tryDecodeInto(MemorySegment control, ControlSnapshot out) {
    validate(control.byteSize());
    out.shutdown = Words.get(control, ControlLayout.SHUTDOWN) != 0;
    out.doneCount = Words.get(control, ControlLayout.DONE_COUNT);
    out.epoch = Words.get(control, ControlLayout.EPOCH);
    int metrics = 0;
    for (int i = 0; i < ControlLayout.METRICS_SLOTS; i++) {
      int count = Words.get(control, ControlLayout.METRICS_BASE + i);
      if (count != 0) {
        out.metricIndex[metrics] = i;
        out.metricValue[metrics++] = count;
      }
    }
    out.metricCount = metrics;
    for (int i = 0; i < ControlLayout.TENANT_FAIRNESS_SLOTS; i++) {
      out.tenantFairness[i] = Words.get(control, ControlLayout.TENANT_FAIRNESS_BASE + i);
    }
    for (int i = 0; i < ControlLayout.PRIORITY_FAIRNESS_SLOTS; i++) {
      out.priorityFairness[i] = Words.get(control, ControlLayout.PRIORITY_FAIRNESS_BASE + i);
    }
  }

  /** Rejects a control buffer shorter than 160 words or not word-aligned. */
  static void validate(long byteLen) {
    if (byteLen < TelemetryErrors.MIN_CONTROL_BYTES || byteLen % 4 != 0) {
      throw TelemetryErrors.controlSnapshot(byteLen);
    }
  }

  public boolean shutdown() {
    return shutdown;
  }

  public long doneCount() {
    return Integer.toUnsignedLong(doneCount);
  }

  public long epoch() {
    return Integer.toUnsignedLong(epoch);
  }

  /** The number of non-zero metric counters. */
  public int metricCount() {
    return metricCount;
  }

  /** The {@code i}-th non-zero metric, in index order. */
  public Metric metric(int i) {
    java.util.Objects.checkIndex(i, metricCount);
    return new Metric(metricIndex[i], Integer.toUnsignedLong(metricValue[i]));
  }

  /** The non-zero metric counters in index order (vyre's {@code metrics}). */
  public List<Metric> metrics() {
    List<Metric> metrics = new ArrayList<>(metricCount);
    for (int i = 0; i < metricCount; i++) {
      metrics.add(metric(i));
    }
    return metrics;
  }

  /** Tenant fairness counter {@code i} (0..31). */
  public long tenantFairness(int i) {
    return Integer.toUnsignedLong(tenantFairness[i]);
  }

  /** All 32 tenant fairness counters (words 64..95). */
  public long[] tenantFairness() {
    return unsigned(tenantFairness);
  }

  /** Priority fairness counter {@code level} (0..4). */
  public long priorityFairness(int level) {
    return Integer.toUnsignedLong(priorityFairness[level]);
  }

  /** All 5 priority fairness counters (words 136..140). */
  public long[] priorityFairness() {
    return unsigned(priorityFairness);
  }

  private static long[] unsigned(int[] words) {
    long[] values = new long[words.length];
    for (int i = 0; i < words.length; i++) {
      values[i] = Integer.toUnsignedLong(words[i]);
    }
    return values;
  }
}
