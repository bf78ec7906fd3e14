package dev.vyre.runtime.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The one buffer abstraction for wire memory: little-endian u32 words in a {@link MemorySegment}.
 * Plain accessors work on any segment (heap byte arrays included). Acquire loads and release
 * stores work on any segment too: a byte[] segment cannot hold an aligned int, so there a fence and
 * a plain access give the same ordering. The read-modify-write atomics need a native, 4-byte-aligned
 * segment (pinned or arena memory), which is what kernels share.
 */
public final class Words {

  /** Plain little-endian word access; alignment-free so it also reads byte[]-backed segments. */
  static final ValueLayout.OfInt PLAIN = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  private static final VarHandle ATOMIC = ValueLayout.JAVA_INT.varHandle();
  private static final VarHandle ATOMIC_LONG = ValueLayout.JAVA_LONG.varHandle();

  static {
    // The wire format is little-endian; the atomic handles use native order, so the two must agree.
    if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
      throw new ExceptionInInitializerError("vyre needs a little-endian host (x86-64 or AArch64)");
    }
  }

  private Words() {}

  public static int get(MemorySegment segment, long word) {
    return segment.get(PLAIN, word * 4);
  }

  public static void set(MemorySegment segment, long word, int value) {
    segment.set(PLAIN, word * 4, value);
  }

  /** Copies {@code count} words of {@code source} from index {@code from} into the segment at word {@code word}. */
  public static void copy(int[] source, int from, MemorySegment segment, long word, int count) {
    MemorySegment.copy(source, from, segment, PLAIN, word * 4, count);
  }

  /** The number of whole words in the segment. */
  public static long count(MemorySegment segment) {
    return segment.byteSize() / 4;
  }

  /** Acquire load: everything the writer stored before its release store is visible after this. */
  public static int getAcquire(MemorySegment segment, long word) {
    if (holdsAlignedInts(segment)) {
      return (int) ATOMIC.getAcquire(segment, word * 4);
    }
    int value = get(segment, word);
    VarHandle.acquireFence();
    return value;
  }

  /** Release store: every earlier store of this thread becomes visible no later than this one. */
  public static void setRelease(MemorySegment segment, long word, int value) {
    if (holdsAlignedInts(segment)) {
      ATOMIC.setRelease(segment, word * 4, value);
      return;
    }
    VarHandle.releaseFence();
    set(segment, word, value);
  }

  /** Whether the aligned-int handle accepts this segment (not true of byte[]-backed or odd-addressed ones). */
  private static boolean holdsAlignedInts(MemorySegment segment) {
    return segment.maxByteAlignment() >= Integer.BYTES;
  }

  public static int getVolatile(MemorySegment segment, long word) {
    return (int) ATOMIC.getVolatile(segment, word * 4);
  }

  public static void setVolatile(MemorySegment segment, long word, int value) {
    ATOMIC.setVolatile(segment, word * 4, value);
  }

  public static int getAndAdd(MemorySegment segment, long word, int delta) {
    return (int) ATOMIC.getAndAdd(segment, word * 4, delta);
  }

  /** Atomic OR; returns the previous value. */
  public static int getAndBitwiseOr(MemorySegment segment, long word, int bits) {
    return (int) ATOMIC.getAndBitwiseOr(segment, word * 4, bits);
  }

  public static int getAndSet(MemorySegment segment, long word, int value) {
    return (int) ATOMIC.getAndSet(segment, word * 4, value);
  }

  public static boolean compareAndSet(MemorySegment segment, long word, int expected, int desired) {
    return ATOMIC.compareAndSet(segment, word * 4, expected, desired);
  }

  /** Returns the witness value (the previous value whether or not the exchange happened). */
  public static int compareAndExchange(MemorySegment segment, long word, int expected, int desired) {
    return (int) ATOMIC.compareAndExchange(segment, word * 4, expected, desired);
  }

  /** A u64 held in two words starting at an even word index (8-byte aligned). */
  public static long getLongAcquire(MemorySegment segment, long evenWord) {
    return (long) ATOMIC_LONG.getAcquire(segment, evenWord * 4);
  }

  public static boolean compareAndSetLong(MemorySegment segment, long evenWord, long expected, long desired) {
    return ATOMIC_LONG.compareAndSet(segment, evenWord * 4, expected, desired);
  }

  /** An untorn 8-byte store (no ordering with other addresses): the express lane's unit. */
  public static void setLongOpaque(MemorySegment segment, long evenWord, long value) {
    ATOMIC_LONG.setOpaque(segment, evenWord * 4, value);
  }

  public static long getLongOpaque(MemorySegment segment, long evenWord) {
    return (long) ATOMIC_LONG.getOpaque(segment, evenWord * 4);
  }

  public static long getAndAddLong(MemorySegment segment, long evenWord, long delta) {
    return (long) ATOMIC_LONG.getAndAdd(segment, evenWord * 4, delta);
  }

  /** A copy of the segment's bytes (snapshots for telemetry and tests). */
  public static byte[] toBytes(MemorySegment segment) {
    return segment.toArray(ValueLayout.JAVA_BYTE);
  }

  /** Words as a little-endian byte array. */
  public static byte[] bytesOf(int... words) {
    byte[] bytes = new byte[words.length * 4];
    MemorySegment segment = MemorySegment.ofArray(bytes);
    for (int i = 0; i < words.length; i++) {
      set(segment, i, words[i]);
    }
    return bytes;
  }
}
