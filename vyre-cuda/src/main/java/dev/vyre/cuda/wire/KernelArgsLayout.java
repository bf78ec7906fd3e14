package dev.vyre.cuda.wire;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * The megakernel's single parameter, the C struct {@code VyreKernelArgs} (megakernel/memory.cu):
 * device pointers (8 bytes) and u32 words, in declaration order with C's natural alignment. The host
 * writes it once per launch; the kernel reads it as a struct. The kernel checks the size against
 * {@link #BYTES}; the offsets are checked with {@code offsetof} by the nvcc layout check in
 * KernelSourceTest (NVRTC has no offsetof).
 */
public final class KernelArgsLayout {

  /** {@code unsigned* control}: the host-mapped control block. */
  public static final int CONTROL_OFFSET = 0;
  /** {@code unsigned* dcontrol}: the device copy of the control block. */
  public static final int DCONTROL_OFFSET = 8;
  /** {@code unsigned control_words}. */
  public static final int CONTROL_WORDS_OFFSET = 16;
  /** {@code unsigned* ring}: host-mapped. */
  public static final int RING_OFFSET = 24;
  /** {@code unsigned slot_count}. */
  public static final int SLOT_COUNT_OFFSET = 32;
  /** {@code unsigned* debug_log}: device memory. */
  public static final int DEBUG_LOG_OFFSET = 40;
  /** {@code unsigned debug_words}. */
  public static final int DEBUG_WORDS_OFFSET = 48;
  /** {@code VyreDeviceState* state} ({@link DeviceStateLayout}). */
  public static final int STATE_OFFSET = 56;
  /** {@code const VyreResource* resources} ({@link ResourceTableLayout}). */
  public static final int RESOURCES_OFFSET = 64;
  /** {@code unsigned resource_capacity}: entries in the resource table. */
  public static final int RESOURCE_CAPACITY_OFFSET = 72;
  /** {@code unsigned scout_idle_ns}. */
  public static final int SCOUT_IDLE_NS_OFFSET = 76;
  /** {@code unsigned worker_idle_ns}. */
  public static final int WORKER_IDLE_NS_OFFSET = 80;
  /** {@code unsigned scout_hot_ns}. */
  public static final int SCOUT_HOT_NS_OFFSET = 84;
  /** {@code const uint4* express}: host-mapped express lane. */
  public static final int EXPRESS_OFFSET = 88;
  /** {@code unsigned* io_queue}: host-mapped IO queue. */
  public static final int IO_QUEUE_OFFSET = 96;
  /** {@code unsigned* io_owner}: device memory, one word per IO slot. */
  public static final int IO_OWNER_OFFSET = 104;
  /** sizeof(VyreKernelArgs). */
  public static final int BYTES = 112;
  /** The struct's alignment (its pointers'). */
  public static final int ALIGNMENT = 8;

  private static final String WHAT = "VyreKernelArgs";
  private static final Set<Integer> POINTERS = Set.of(CONTROL_OFFSET, DCONTROL_OFFSET, RING_OFFSET, DEBUG_LOG_OFFSET, STATE_OFFSET,
      RESOURCES_OFFSET, EXPRESS_OFFSET, IO_QUEUE_OFFSET, IO_OWNER_OFFSET);
  private static final Set<Integer> U32S = Set.of(CONTROL_WORDS_OFFSET, SLOT_COUNT_OFFSET, DEBUG_WORDS_OFFSET,
      RESOURCE_CAPACITY_OFFSET, SCOUT_IDLE_NS_OFFSET, WORKER_IDLE_NS_OFFSET, SCOUT_HOT_NS_OFFSET);

  private KernelArgsLayout() {}

  /** Refuses a segment that is not exactly {@link #BYTES} long. */
  public static void check(MemorySegment args) {
    Layouts.checkSize(args, BYTES, WHAT);
  }

  /** Writes the device pointer field at {@code offset}. */
  public static void putPointer(MemorySegment args, int offset, long devicePointer) {
    check(args);
    checkField(POINTERS.contains(offset), offset, "pointer");
    args.set(JAVA_LONG, offset, devicePointer);
  }

  /** Writes the u32 field at {@code offset}. */
  public static void putU32(MemorySegment args, int offset, int value) {
    check(args);
    checkField(U32S.contains(offset), offset, "u32");
    args.set(JAVA_INT, offset, value);
  }

  private static void checkField(boolean ok, int offset, String type) {
    if (!ok) {
      throw new IllegalArgumentException("offset " + offset + " is not a " + type + " field of " + WHAT);
    }
  }
}
