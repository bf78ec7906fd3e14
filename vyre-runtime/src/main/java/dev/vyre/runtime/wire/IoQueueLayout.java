package dev.vyre.runtime.wire;

import dev.vyre.driver.error.PipelineException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Layout of the IO queue (vyre-runtime.md §1.11): up to 64 request slots of 8 words through which
 * the kernel asks the host for DMA reads.
 */
public final class IoQueueLayout {

  public static final int SLOT_WORDS = 8;
  public static final int SLOT_BYTES = SLOT_WORDS * 4;
  public static final int IO_SLOT_COUNT = 64;
  public static final int OP_TYPE = 0;
  public static final int SRC_HANDLE = 1;
  public static final int DST_HANDLE = 2;
  public static final int OFFSET_LO = 3;
  public static final int OFFSET_HI = 4;
  public static final int BYTE_COUNT = 5;
  public static final int STATUS = 6;
  public static final int TAG = 7;

  public static final int OP_READ = 0x01;
  public static final int OP_WRITE = 0x02;
  public static final int OP_FENCE = 0x03;
  public static final int STATUS_OK = 0x10;
  public static final int STATUS_ERROR = 0x11;

  /** A PUBLISHED request as the host sees it. */
  public record IoRequest(int slot, int opType, long src, long dst, long offset, long byteCount, long tag) {}

  private IoQueueLayout() {}

  public static long byteLength(int slots) {
    return (long) slots * SLOT_BYTES;
  }

  public static long word(int slot, int field) {
    return (long) slot * SLOT_WORDS + field;
  }

  /** An all-EMPTY queue of 1..64 slots. */
  public static byte[] encodeEmpty(int slots) {
    if (slots < 1 || slots > IO_SLOT_COUNT) {
      throw PipelineException.queueFull("submission", "io queue of " + slots + " slots exceeds the compiled IO poll window of 64 slots",
          "use between 1 and 64 IO slots");
    }
    return new byte[(int) byteLength(slots)];
  }

  /** Number of slots in a valid queue buffer. */
  public static int validate(MemorySegment queue) {
    long len = queue.byteSize();
    if (len % 4 != 0 || len % SLOT_BYTES != 0) {
      throw PipelineException.backend("io_queue byte length " + len + " is not a multiple of 32. Fix: allocate slots * 32 bytes");
    }
    if (len / SLOT_BYTES > IO_SLOT_COUNT) {
      throw PipelineException.queueFull("submission", "io queue exceeds the compiled IO poll window of 64 slots", "use at most 64 IO slots");
    }
    return (int) (len / SLOT_BYTES);
  }

  /** Every PUBLISHED request (no mutation). */
  public static List<IoRequest> poll(MemorySegment queue) {
    return collect(queue, false);
  }

  /** Every PUBLISHED request, each moved to CLAIMED first; a second claim returns nothing. */
  public static List<IoRequest> claim(MemorySegment queue) {
    return collect(queue, true);
  }

  private static List<IoRequest> collect(MemorySegment queue, boolean claim) {
    int slots = validate(queue);
    List<IoRequest> requests = new ArrayList<>();
    for (int s = 0; s < slots; s++) {
      if (Words.get(queue, word(s, STATUS)) != SlotLayout.STATUS_PUBLISHED) {
        continue;
      }
      if (claim) {
        Words.set(queue, word(s, STATUS), SlotLayout.STATUS_CLAIMED);
      }
      requests.add(new IoRequest(s, Words.get(queue, word(s, OP_TYPE)), u32(queue, s, SRC_HANDLE), u32(queue, s, DST_HANDLE),
          u32(queue, s, OFFSET_HI) << 32 | u32(queue, s, OFFSET_LO), u32(queue, s, BYTE_COUNT), u32(queue, s, TAG)));
    }
    return requests;
  }

  /** Completes CLAIMED requests as OK or ERROR; validates every slot first and mutates nothing on error. */
  public static void complete(MemorySegment queue, int[] slots, boolean[] success) {
    int count = validate(queue);
    for (int slot : slots) {
      if (slot < 0 || slot >= count || Words.get(queue, word(slot, STATUS)) != SlotLayout.STATUS_CLAIMED) {
        throw PipelineException.queueFull("completion", "completion requires a CLAIMED request (slot " + slot + ")",
            "claim the request before completing it");
      }
    }
    for (int i = 0; i < slots.length; i++) {
      Words.setRelease(queue, word(slots[i], STATUS), success[i] ? STATUS_OK : STATUS_ERROR);
    }
  }

  private static long u32(MemorySegment queue, int slot, int field) {
    return Integer.toUnsignedLong(Words.get(queue, word(slot, field)));
  }
}
