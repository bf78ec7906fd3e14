package dev.vyre.scan;

import dev.vyre.driver.Unsigned;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.dfa.HitBufferLayout;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The host side of a scan's hit resources ({@link HitBufferLayout}): DEVICE buffers, since the
 * kernel bumps their cursor atomically, so the host creates, reads back and resets them only with
 * the megakernel's write and read calls. The host copies live in HOST_MAPPED resources (pinned on
 * a GPU, so a copy is one DMA with no bounce buffer), and one copy brings back the header with as
 * many records as recent chunks found, so a chunk's hits usually cost one round trip. Used by one
 * thread, after the tasks that append to a buffer have finished.
 */
final class HitResources {

  private static final ValueLayout.OfInt STAGED_WORD = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  /** Records fetched with the header before any chunk has been seen. */
  private static final long FIRST_READ_AHEAD = 1024;

  private final Megakernel kernel;
  private final KernelResourcePool pool;
  private final int headerHandle;
  private final MemorySegment header;
  private int stagingHandle;
  private MemorySegment staging;
  /** The resource whose records the host copy holds, and how many: the last {@link #fetch}'s. */
  private int fetchedHandle = -1;
  private long fetched;
  private long readAhead = FIRST_READ_AHEAD;

  HitResources(KernelResourcePool pool) {
    this.kernel = pool.kernel();
    this.pool = pool;
    this.headerHandle = pool.take(HitBufferLayout.byteSize(0), ResourcePlacement.HOST_MAPPED);
    this.header = pool.hostView(headerHandle, HitBufferLayout.byteSize(0));
    this.stagingHandle = pool.take(HitBufferLayout.byteSize(FIRST_READ_AHEAD), ResourcePlacement.HOST_MAPPED);
    this.staging = pool.hostView(stagingHandle, HitBufferLayout.byteSize(FIRST_READ_AHEAD));
  }

  /** An empty hit resource of {@code capacity} records. */
  int allocate(long capacity) {
    int handle = pool.take(HitBufferLayout.byteSize(capacity), ResourcePlacement.DEVICE);
    reset(handle, capacity);
    return handle;
  }

  /** Gives a hit resource back to the pool once its tasks finished. */
  void free(int handle) {
    pool.giveBack(handle);
  }

  /** Gives the host copies back to the pool. */
  void close() {
    pool.giveBack(headerHandle);
    pool.giveBack(stagingHandle);
  }

  /** Empties a hit resource (cursor 0) and writes its capacity. */
  void reset(int handle, long capacity) {
    header.fill((byte) 0);
    Words.set(header, HitBufferLayout.CAPACITY_WORD, (int) capacity);
    kernel.writeResource(handle, 0, header);
  }

  /**
   * Hits appended since the last reset, counting those that did not fit. With {@code
   * withRecords}, the same copy brings back the first records for {@link #collect}.
   */
  long fetch(int handle, long capacity, boolean withRecords) {
    fetched = withRecords ? Math.min(readAhead, capacity) : 0;
    fetchedHandle = handle;
    ensureStaging(fetched, 0);
    kernel.readResource(handle, 0, staging.asSlice(0, HitBufferLayout.byteSize(fetched)));
    long cursor = HitBufferLayout.cursor(staging);
    if (withRecords) {
      readAhead = Math.max(readAhead, Math.min(capacity, cursor + cursor / 4));
    }
    return cursor;
  }

  /**
   * Hands the first {@code count} records (count at most the capacity) of a fetched buffer to
   * {@code sink}, copying out those the host copy does not hold: all of them when another buffer
   * was fetched since (a chunk whose hits waited for an earlier chunk).
   */
  void collect(int handle, long count, HitSink sink) {
    long held = handle == fetchedHandle ? fetched : 0;
    if (count > held) {
      ensureStaging(count, held);
      long from = HitBufferLayout.byteSize(held);
      kernel.readResource(handle, from, staging.asSlice(from, HitBufferLayout.byteSize(count) - from));
      fetchedHandle = handle;
      fetched = count;
    }
    replay(count, sink);
  }

  /** Hands the first {@code count} records {@link #collect} copied out to {@code sink} again. */
  void replay(long count, HitSink sink) {
    for (long i = 0; i < count; i++) {
      long start = Unsigned.u32(staged(HitBufferLayout.recordWord(i, HitBufferLayout.START_LO_FIELD)))
          | (long) staged(HitBufferLayout.recordWord(i, HitBufferLayout.START_HI_FIELD)) << 32;
      sink.hit(staged(HitBufferLayout.recordWord(i, HitBufferLayout.INPUT_ID_FIELD)), start,
          staged(HitBufferLayout.recordWord(i, HitBufferLayout.PATTERN_ID_FIELD)));
    }
  }

  /**
   * A word of the host copy. Not {@link Words#get}, whose one type profile (the JIT keeps one per call
   * site) also sees heap segments elsewhere and would leave each of these reads an uninlined call.
   */
  private int staged(long word) {
    return staging.get(STAGED_WORD, word * 4);
  }

  /**
   * Makes the host copy hold the header and {@code records} records, keeping the header and the
   * first {@code keep} records it holds; a new copy is pinned memory of at least twice the old.
   */
  private void ensureStaging(long records, long keep) {
    long bytes = HitBufferLayout.byteSize(records);
    if (staging.byteSize() < bytes) {
      long size = Math.max(bytes, 2 * staging.byteSize());
      int largerHandle = pool.take(size, ResourcePlacement.HOST_MAPPED);
      MemorySegment larger = pool.hostView(largerHandle, size);
      long kept = HitBufferLayout.byteSize(keep);
      larger.asSlice(0, kept).copyFrom(staging.asSlice(0, kept));
      pool.giveBack(stagingHandle);
      stagingHandle = largerHandle;
      staging = larger;
    }
  }

  /** Receives one hit record and the input id it carries. */
  @FunctionalInterface
  interface HitSink {
    void hit(int inputId, long start, int patternId);
  }
}
