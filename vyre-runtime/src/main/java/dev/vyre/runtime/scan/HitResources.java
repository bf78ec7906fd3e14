package dev.vyre.runtime.scan;

import dev.vyre.driver.Unsigned;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The host side of a scan's hit resources ({@link HitBufferLayout}): DEVICE buffers, since the
 * kernel bumps their cursor atomically, so the host creates, reads back and resets them only with
 * the megakernel's write and read calls, through one reused host copy. Used by one thread, after
 * the tasks that append to a buffer have finished.
 */
final class HitResources {

  private final Megakernel kernel;
  private final Arena arena;
  private final MemorySegment header;
  private MemorySegment records;

  HitResources(Megakernel kernel, Arena arena) {
    this.kernel = kernel;
    this.arena = arena;
    this.header = arena.allocate(HitBufferLayout.HEADER_WORDS * 4L, 8);
    this.records = header;
  }

  /** A new, empty hit resource of {@code capacity} records. */
  int allocate(long capacity) {
    int handle = kernel.allocateResource(HitBufferLayout.byteSize(capacity), ResourcePlacement.DEVICE);
    reset(handle, capacity);
    return handle;
  }

  /** Empties a hit resource (cursor 0) and writes its capacity. */
  void reset(int handle, long capacity) {
    header.fill((byte) 0);
    Words.set(header, HitBufferLayout.CAPACITY_WORD, (int) capacity);
    kernel.writeResource(handle, 0, header);
  }

  /** Hits appended since the last reset, counting those that did not fit. */
  long cursor(int handle) {
    kernel.readResource(handle, 0, header);
    return HitBufferLayout.cursor(header);
  }

  /**
   * Copies the first {@code count} records out (count at most the capacity) and hands each to
   * {@code sink}; returns the number of records whose input id is not {@code inputId}, which a
   * correct kernel never writes.
   */
  long collect(int handle, long count, int inputId, HitSink sink) {
    long bytes = HitBufferLayout.byteSize(count);
    if (records.byteSize() < bytes) {
      records = arena.allocate(Math.max(bytes, 2 * records.byteSize()), 8);
    }
    MemorySegment copy = records.asSlice(0, bytes);
    kernel.readResource(handle, 0, copy);
    long foreign = 0;
    for (long i = 0; i < count; i++) {
      if (Words.get(copy, HitBufferLayout.recordWord(i, HitBufferLayout.INPUT_ID_FIELD)) != inputId) {
        foreign++;
        continue;
      }
      long start = Unsigned.u32(Words.get(copy, HitBufferLayout.recordWord(i, HitBufferLayout.START_LO_FIELD)))
          | (long) Words.get(copy, HitBufferLayout.recordWord(i, HitBufferLayout.START_HI_FIELD)) << 32;
      sink.hit(start, Words.get(copy, HitBufferLayout.recordWord(i, HitBufferLayout.PATTERN_ID_FIELD)));
    }
    return foreign;
  }

  /** Receives one hit record. */
  @FunctionalInterface
  interface HitSink {
    void hit(long start, int patternId);
  }
}
