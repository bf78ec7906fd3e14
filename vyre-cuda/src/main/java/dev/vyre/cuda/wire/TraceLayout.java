package dev.vyre.cuda.wire;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The device trace, the tail of {@code VyreDeviceState} from {@code trace_seen} on, filled only by a
 * kernel built with {@code -DVYRE_TRACE}: globaltimer nanoseconds summed over tasks and polls, and
 * how many of each were traced. All fields are u64. Offsets are relative to the block, which
 * starts at {@link DeviceStateLayout#TRACE_OFFSET}.
 */
public final class TraceLayout {

  /** {@code trace_seen}: when the scout last saw a doorbell change. */
  public static final int SEEN_OFFSET = 0;
  /** {@code trace_stored}: when a status was last stored. */
  public static final int STORED_OFFSET = 8;
  /** {@code trace_sum[SUMS]}. */
  public static final int SUMS_OFFSET = 16;
  public static final int SUMS = 7;
  /** {@code trace_count[COUNTS]}. */
  public static final int COUNTS_OFFSET = SUMS_OFFSET + 8 * SUMS;
  public static final int COUNTS = 3;
  public static final int BYTES = COUNTS_OFFSET + 8 * COUNTS;

  /** Sum index: work seen by the scout to the task's slot in hand, per task. */
  public static final int SUM_SEEN_TO_START = 0;
  /** Sum index: slot in hand to the task run. */
  public static final int SUM_START_TO_RAN = 1;
  /** Sum index: run to the counters added. */
  public static final int SUM_RAN_TO_COUNTED = 2;
  /** Sum index: counters added to the status stored. */
  public static final int SUM_COUNTED_TO_STORED = 3;
  /** Sum index: the scout's hot poll period, per poll. */
  public static final int SUM_POLL_PERIOD = 4;
  /** Sum index: a hot poll's issue to its data (the PCIe read), per poll. */
  public static final int SUM_POLL_LATENCY = 5;
  /** Sum index: the last status store to the next poll's issue. */
  public static final int SUM_STORED_TO_ISSUE = 6;
  /** Count index: tasks traced. */
  public static final int COUNT_TASKS = 0;
  /** Count index: hot polls traced. */
  public static final int COUNT_POLLS = 1;
  /** Count index: tasks run from their express copies. */
  public static final int COUNT_EXPRESS_TASKS = 2;

  private TraceLayout() {}

  /** Refuses a copy that is not exactly the trace block. */
  public static void check(MemorySegment block) {
    Layouts.checkSize(block, BYTES, "the device trace block");
  }

  /** {@code trace_sum[index]} of a copied-out block. */
  public static long sum(MemorySegment block, int index) {
    check(block);
    return block.get(JAVA_LONG, SUMS_OFFSET + 8L * index(index, SUMS));
  }

  /** {@code trace_count[index]} of a copied-out block. */
  public static long count(MemorySegment block, int index) {
    check(block);
    return block.get(JAVA_LONG, COUNTS_OFFSET + 8L * index(index, COUNTS));
  }

  /**
   * A copied-out block as the session reports it: mean µs per traced task for each stage (seen to
   * slot in hand, to run, to counted, to stored), the hot polls' mean period and latency, the mean
   * gap from a status store to the next poll, and the counts.
   */
  public static Map<String, Double> summary(MemorySegment block) {
    double tasks = Math.max(1, count(block, COUNT_TASKS));
    double polls = Math.max(1, count(block, COUNT_POLLS));
    Map<String, Double> trace = new LinkedHashMap<>();
    trace.put("device_seen_to_slot_in_hand_us", sum(block, SUM_SEEN_TO_START) / tasks / 1e3);
    trace.put("device_slot_in_hand_to_ran_us", sum(block, SUM_START_TO_RAN) / tasks / 1e3);
    trace.put("device_ran_to_counted_us", sum(block, SUM_RAN_TO_COUNTED) / tasks / 1e3);
    trace.put("device_counted_to_stored_us", sum(block, SUM_COUNTED_TO_STORED) / tasks / 1e3);
    trace.put("device_scout_poll_us", sum(block, SUM_POLL_PERIOD) / polls / 1e3);
    trace.put("device_scout_poll_latency_us", sum(block, SUM_POLL_LATENCY) / polls / 1e3);
    trace.put("device_stored_to_next_poll_us", sum(block, SUM_STORED_TO_ISSUE) / tasks / 1e3);
    trace.put("device_traced_tasks", (double) count(block, COUNT_TASKS));
    trace.put("device_express_tasks", (double) count(block, COUNT_EXPRESS_TASKS));
    return trace;
  }

  private static int index(int index, int length) {
    if (index < 0 || index >= length) {
      throw new IllegalArgumentException("trace index " + index + " is outside 0.." + (length - 1));
    }
    return index;
  }
}
