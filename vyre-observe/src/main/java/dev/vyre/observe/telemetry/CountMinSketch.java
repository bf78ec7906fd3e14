package dev.vyre.observe.telemetry;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.PipelineException;
import java.util.Arrays;

/**
 * A count-min sketch of u64 counters, {@code depth} rows of {@code width}, row-major, with vyre's
 * hashing so that counts and counter indices match vyre's exactly: row {@code r} of key {@code k}
 * uses counter {@code r·width + splitmix64(k ⊕ r·φ) mod width} (φ = 0x9E3779B97F4A7C15, unsigned
 * arithmetic). An estimate never undercounts. Not thread-safe.
 */
public final class CountMinSketch {

  private static final long GOLDEN_GAMMA = 0x9E37_79B9_7F4A_7C15L;
  /** The largest counter array a JVM reliably allocates. */
  private static final long MAX_COUNTERS = Integer.MAX_VALUE - 8;

  private int depth;
  private int width;
  private long[] counters;

  /**
   * A zeroed sketch.
   *
   * @throws PipelineException {@code InvalidArgument{subject:"telemetry"}} when depth or width is below 1
   *     or depth·width overflows the counter array
   */
  public CountMinSketch(int depth, int width) {
    this.counters = new long[checkedSize(depth, width)];
    this.depth = depth;
    this.width = width;
  }

  public int depth() {
    return depth;
  }

  public int width() {
    return width;
  }

  /** Allocated counters (at least depth·width; kept across {@link #resetShape}). */
  public int capacity() {
    return counters.length;
  }

  /** vyre's splitmix64 finalizer (wrapping u64). */
  public static long splitmix64(long value) {
    long v = value + GOLDEN_GAMMA;
    v = (v ^ (v >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
    v = (v ^ (v >>> 27)) * 0x94D0_49BB_1331_11EBL;
    return v ^ (v >>> 31);
  }

  /** The flat counter index of {@code key} (u64 bit pattern) in {@code row}. */
  public int bucket(int row, long key) {
    java.util.Objects.checkIndex(row, depth);
    long hash = splitmix64(key ^ ((long) row * GOLDEN_GAMMA));
    return row * width + (int) Long.remainderUnsigned(hash, width);
  }

  /** Counter at a flat index (u64 bit pattern). */
  public long counter(int index) {
    java.util.Objects.checkIndex(index, depth * width);
    return counters[index];
  }

  /** Adds {@code amount} (u64) to the key's counter in every row, saturating at u64::MAX; 0 is a no-op. */
  public void add(long key, long amount) {
    if (amount == 0) {
      return;
    }
    for (int row = 0; row < depth; row++) {
      int index = bucket(row, key);
      counters[index] = Unsigned.saturatingAddU64(counters[index], amount);
    }
  }

  /**
   * Adds like {@link #add} but refuses to saturate: nothing changes when any row would overflow.
   *
   * @throws PipelineException {@code QueueFull{queue:"telemetry"}} on u64 overflow: the counters are full
   */
  public void tryAdd(long key, long amount) {
    if (amount == 0) {
      return;
    }
    for (int row = 0; row < depth; row++) {
      if (Unsigned.addOverflows(counters[bucket(row, key)], amount)) {
        throw overflow();
      }
    }
    for (int row = 0; row < depth; row++) {
      counters[bucket(row, key)] += amount;
    }
  }

  /** The minimum of the key's counters over all rows (u64 bit pattern): never below the true count. */
  public long estimate(long key) {
    long min = Unsigned.U64_MAX;
    for (int row = 0; row < depth; row++) {
      long count = counters[bucket(row, key)];
      if (Unsigned.compareU64(count, min) < 0) {
        min = count;
      }
    }
    return min;
  }

  /**
   * Adds every counter of {@code other}, which must have the same shape; checked, so nothing
   * changes on overflow.
   *
   * @throws PipelineException {@code InvalidArgument{subject:"telemetry"}} on a shape mismatch,
   *     {@code QueueFull{queue:"telemetry"}} on u64 overflow
   */
  public void merge(CountMinSketch other) {
    if (other.depth != depth || other.width != width) {
      throw PipelineException.invalidArgument("telemetry",
          "cannot merge a " + other.depth + "x" + other.width + " count-min sketch into a " + depth + "x" + width + " one",
          "merge sketches built with the same depth and width");
    }
    int size = depth * width;
    for (int i = 0; i < size; i++) {
      if (Unsigned.addOverflows(counters[i], other.counters[i])) {
        throw overflow();
      }
    }
    for (int i = 0; i < size; i++) {
      counters[i] += other.counters[i];
    }
  }

  /** Zeroes every counter, keeping the shape. */
  public void clear() {
    Arrays.fill(counters, 0, depth * width, 0);
  }

  /** Changes the shape and zeroes the counters, reusing the storage when it is large enough. */
  public void resetShape(int newDepth, int newWidth) {
    int size = checkedSize(newDepth, newWidth);
    if (counters.length < size) {
      counters = new long[size];
    }
    depth = newDepth;
    width = newWidth;
    clear();
  }

  private static int checkedSize(int depth, int width) {
    if (depth < 1 || width < 1) {
      throw PipelineException.invalidArgument("telemetry",
          "count-min sketch needs depth and width of at least 1, got " + depth + "x" + width,
          "pass a non-zero sketch depth and width, e.g. 4x128");
    }
    long size = (long) depth * width;
    if (size > MAX_COUNTERS) {
      throw PipelineException.invalidArgument("telemetry",
          "count-min sketch shape " + depth + "x" + width + " overflows the counter array",
          "keep depth*width below 2^31");
    }
    return (int) size;
  }

  /** A counter at u64::MAX is a full queue, not a bad argument: draining or clearing makes room. */
  private static PipelineException overflow() {
    return PipelineException.queueFull("telemetry", "count-min sketch counter overflowed u64",
        "drain or clear the sketch before its counters reach u64::MAX");
  }
}
