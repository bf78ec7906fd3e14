package dev.vyre.cuda.wire;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;

/**
 * One entry of the resource table in device memory, the C struct {@code VyreResource}
 * (megakernel/memory.cu): the buffer's device-visible address and its length, whose top bit says
 * the buffer is pinned host memory mapped into the device. Entry {@code h} describes resource
 * handle {@code h}; an address of 0 marks an unused handle.
 */
public final class ResourceTableLayout {

  /** {@code unsigned long long ptr}. */
  public static final int POINTER_OFFSET = 0;
  /** {@code unsigned long long bytes}: the length, with {@link #HOST_MAPPED} or'ed in. */
  public static final int BYTES_OFFSET = 8;
  /** sizeof(VyreResource). */
  public static final int ENTRY_BYTES = 16;
  /** Set in the length word of pinned host memory: the kernel must not use device atomics on it. */
  public static final long HOST_MAPPED = 1L << 63;

  private ResourceTableLayout() {}

  /** Byte offset of handle {@code handle}'s entry in the table. */
  public static long entryOffset(int handle) {
    return (long) handle * ENTRY_BYTES;
  }

  /** Refuses a segment that is not exactly one entry. */
  public static void check(MemorySegment entry) {
    Layouts.checkSize(entry, ENTRY_BYTES, "a VyreResource entry");
  }

  /** Fills one entry: address, and length flagged {@link #HOST_MAPPED} where it is. */
  public static void write(MemorySegment entry, long devicePointer, long byteSize, boolean hostMapped) {
    check(entry);
    entry.set(JAVA_LONG, POINTER_OFFSET, devicePointer);
    entry.set(JAVA_LONG, BYTES_OFFSET, hostMapped ? byteSize | HOST_MAPPED : byteSize);
  }
}
